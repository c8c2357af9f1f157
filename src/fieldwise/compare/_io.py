"""Write and read the result frames as Parquet (the one I/O helper of the compare package)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from fieldwise._errors import CompareError
from fieldwise.compare._comparison import FRAME_NAMES, ComparisonResult

__all__ = ["read_frames", "value_text", "write_frames"]

_VALUE_COLUMNS = ("expected", "predicted", "predicted_baseline", "predicted_candidate")


def _kind(value: Any) -> str | None:
    if value is None or (isinstance(value, float) and value != value):
        return None
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list | tuple):
        return "array"
    return "string"


def value_text(value: Any) -> str | None:
    """The value as people read it: strings as they are ("EUR", not '"EUR"'), numbers and
    booleans as JSON writes them, objects and arrays as JSON; ``None`` for no value (NaN
    included). The Parquet frames and the export's CSV and text columns write this."""
    kind = _kind(value)
    if kind is None:
        return None
    if kind == "string":
        return str(value)
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def _typed(table: pd.DataFrame, col: str) -> None:
    """Raw values are mixed (str, float, bool, dict) and a Parquet column has one type: keep
    ``col`` as text and add ``col_kind``, ``col_number`` and ``col_boolean`` typed columns."""
    raw = table[col]
    kinds = raw.map(_kind)
    table[col] = raw.map(value_text).astype(object)
    table[f"{col}_kind"] = kinds.astype(object)
    numbers = [float(v) if k == "number" else None for v, k in zip(raw, kinds, strict=True)]
    table[f"{col}_number"] = pd.array(numbers, dtype="Float64")
    flags = [bool(v) if k == "boolean" else None for v, k in zip(raw, kinds, strict=True)]
    table[f"{col}_boolean"] = pd.array(flags, dtype="boolean")


def _untyped(table: pd.DataFrame, col: str) -> None:
    """Undo :func:`_typed`: ``col`` holds the original Python values again."""
    kinds = table.pop(f"{col}_kind")
    numbers = table.pop(f"{col}_number")
    flags = table.pop(f"{col}_boolean")
    values: list[Any] = []
    for text, kind, number, flag in zip(table[col], kinds, numbers, flags, strict=True):
        if kind == "number":
            values.append(json.loads(text) if isinstance(text, str) else float(number))
        elif kind == "boolean":
            values.append(bool(flag))
        elif kind in ("object", "array"):
            values.append(json.loads(text))
        elif kind == "string":
            values.append(text)
        else:
            values.append(None)
    table[col] = pd.Series(values, index=table.index, dtype=object)


def write_frames(result: ComparisonResult, directory: str | Path) -> list[Path]:
    """Write every frame of ``result`` to ``<directory>/<name>.parquet``; returns the paths.

    Raw ``expected``/``predicted`` values keep their types: ``<col>`` is the value as text
    (strings unquoted, objects as JSON), ``<col>_kind`` says string / number / boolean /
    object / array (null for no value), ``<col>_number`` and ``<col>_boolean`` hold numbers
    and booleans typed. :func:`read_frames` gives the original values back.
    """
    out = Path(directory)
    try:
        out.mkdir(parents=True, exist_ok=True)
        paths = []
        for name, frame in result.frames().items():
            table = frame.copy()
            for col in _VALUE_COLUMNS:
                if col in table.columns:
                    _typed(table, col)
            path = out / f"{name}.parquet"
            table.to_parquet(path, index=False)
            paths.append(path)
    except (OSError, ValueError, TypeError) as exc:
        raise CompareError(f"cannot write comparison frames to {out}: {exc}") from exc
    return paths


def read_frames(directory: str | Path) -> dict[str, pd.DataFrame]:
    """Read the frames :func:`write_frames` wrote, by name (missing files are skipped), with
    the raw values back in their Python types."""
    base = Path(directory)
    frames: dict[str, pd.DataFrame] = {}
    try:
        for name in FRAME_NAMES:
            if (base / f"{name}.parquet").exists():
                table = pd.read_parquet(base / f"{name}.parquet")
                for col in _VALUE_COLUMNS:
                    if f"{col}_kind" in table.columns:
                        _untyped(table, col)
                frames[name] = table
    except (OSError, ValueError) as exc:
        raise CompareError(f"cannot read comparison frames from {base}: {exc}") from exc
    return frames
