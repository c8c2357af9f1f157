"""Write and read the result frames as Parquet (the one I/O helper of the compare package)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from fieldwise.compare.result import FRAME_NAMES, ComparisonResult
from fieldwise.errors import CompareError

__all__ = ["read_frames", "write_frames"]

_VALUE_COLUMNS = ("expected", "predicted", "predicted_baseline", "predicted_candidate")


def _cell_text(value: Any) -> str | None:
    """Raw values are mixed (str, float, dict); Parquet needs one type, so store JSON text."""
    if value is None or (isinstance(value, float) and value != value):
        return None
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def write_frames(result: ComparisonResult, directory: str | Path) -> list[Path]:
    """Write every frame of ``result`` to ``<directory>/<name>.parquet``; returns the paths.

    Raw ``expected``/``predicted`` values are stored as JSON text (``json.loads`` gives them back).
    """
    out = Path(directory)
    try:
        out.mkdir(parents=True, exist_ok=True)
        paths = []
        for name, frame in result.frames().items():
            table = frame.copy()
            for col in _VALUE_COLUMNS:
                if col in table.columns:
                    table[col] = table[col].map(_cell_text).astype(object)
            path = out / f"{name}.parquet"
            table.to_parquet(path, index=False)
            paths.append(path)
    except (OSError, ValueError, TypeError) as exc:
        raise CompareError(f"cannot write comparison frames to {out}: {exc}") from exc
    return paths


def read_frames(directory: str | Path) -> dict[str, pd.DataFrame]:
    """Read the frames :func:`write_frames` wrote, by name (missing files are skipped)."""
    base = Path(directory)
    try:
        return {
            name: pd.read_parquet(base / f"{name}.parquet")
            for name in FRAME_NAMES
            if (base / f"{name}.parquet").exists()
        }
    except (OSError, ValueError) as exc:
        raise CompareError(f"cannot read comparison frames from {base}: {exc}") from exc
