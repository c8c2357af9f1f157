"""Generic JSON predictions: JSON Lines (``{"file": ..., "output": {field: value}}`` per
line) and a folder of one JSON object per document (named after it).

Either may carry confidences as ``"confidence": {"<dotted path>": 0.93}`` beside ``output``
(paths as the comparison names cells: ``total``, ``line_items.0.amount``), in [0, 1].
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fieldwise.imports._files import folder_files, read_json, read_jsonl
from fieldwise.imports._model import Output, PredictionsError

__all__ = ["read_folder", "read_jsonl_outputs"]

_WRAPPER = {"file", "output", "confidence"}


def _confidences(value: Any, where: str) -> dict[str, float]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise PredictionsError(f'{where}: "confidence" must be an object of path: number')
    out: dict[str, float] = {}
    for path, number in value.items():
        if (
            isinstance(number, bool)
            or not isinstance(number, int | float)
            or not math.isfinite(number)
            or not 0 <= number <= 1
        ):
            raise PredictionsError(f"{where}: confidence of {path!r} must be a number in [0, 1]")
        out[str(path)] = float(number)
    return out


def read_jsonl_outputs(path: Path) -> list[Output]:
    """Every line's output; a line that is not ``{"file": str, "output": object}`` is an
    error naming its line."""
    outputs = []
    for number, row in read_jsonl(path):
        where = f"{path}:{number}"
        if not isinstance(row, Mapping) or not isinstance(row.get("file"), str):
            raise PredictionsError(f'{where}: expected {{"file": "...", "output": {{...}}}}')
        if not isinstance(row.get("output"), Mapping):
            raise PredictionsError(f'{where}: "output" must be an object of field: value')
        extra = sorted(set(row) - _WRAPPER)
        if extra:
            raise PredictionsError(f"{where}: unknown key {extra[0]!r} (expected file, output)")
        outputs.append(
            Output(
                row["file"], where, dict(row["output"]), _confidences(row.get("confidence"), where)
            )
        )
    return outputs


def read_folder(folder: Path) -> list[Output]:
    """One output per ``<document stem>.json``: the extracted object itself, or
    ``{"output": {...}, "confidence": {...}}``."""
    outputs = []
    for path in folder_files(folder):
        data = read_json(path)
        where = f"{path}:1"
        if not isinstance(data, Mapping):
            raise PredictionsError(f"{where}: expected a JSON object of field: value")
        key = str(data["file"]) if isinstance(data.get("file"), str) else path.stem
        if "output" in data and set(data) <= _WRAPPER and isinstance(data["output"], Mapping):
            outputs.append(
                Output(
                    key, where, dict(data["output"]), _confidences(data.get("confidence"), where)
                )
            )
        else:
            outputs.append(Output(path.stem, where, dict(data)))
    return outputs
