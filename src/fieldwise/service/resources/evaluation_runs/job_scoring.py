"""Scoring an evaluation run with the toolkit's compare library: outputs → metrics and cells.

Pure (no I/O): :func:`score` takes the snapshotted ground truth and the succeeded runs'
outputs, so the figures are the ones ``fieldwise.compare.compare`` gives on the same data.
An item without an output (its run failed) has every expected field counted as missed, so a
version never gains by failing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from fieldwise.compare import OUTCOMES, FieldSpec, build_frame, compare

_FIELD_FIGURES = ("accuracy", "precision", "recall", "f1", "mean_score")


@dataclass(frozen=True)
class Cell:
    """One scored cell (``row`` is None outside arrays; for array cells see
    :func:`fieldwise.compare.align_arrays`)."""

    item_id: str
    field: str
    row: int | None
    expected: Any
    predicted: Any
    outcome: str
    confidence: float | None
    score: float | None


@dataclass(frozen=True)
class Scoring:
    """Metrics (a JSON-ready dict) and the cells sorted by item, field and row."""

    metrics: dict[str, Any]
    cells: tuple[Cell, ...]


def plain(value: Any) -> Any:
    """A JSON-ready copy: numpy scalars to Python, NaN and pandas NA to None."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _number(value: Any) -> float | None:
    number = float(value)
    return None if math.isnan(number) else number


def score(
    truth: Mapping[str, Mapping[str, Any]],
    outputs: Mapping[str, Mapping[str, Any]],
    specs: Mapping[str, FieldSpec],
    *,
    version_id: str,
) -> Scoring:
    """Compare ``outputs`` (item id → run output) with ``truth`` (item id → ground truth).

    Raises CompareError when there is nothing to compare (no field in truth or outputs).
    """
    frame = build_frame(truth, {version_id: outputs})
    result = compare(frame, specs, baseline=version_id)
    overall = result.overall.iloc[0]
    counts = result.cells["outcome"].value_counts()
    metrics: dict[str, Any] = {
        "accuracy": float(overall["accuracy"]),
        "precision": float(overall["precision"]),
        "recall": float(overall["recall"]),
        "f1": float(overall["f1"]),
        "all_fields_correct_rate": float(overall["all_fields_correct_rate"]),
        "support": int(overall["support"]),
        "cells": int(overall["n_cells"]),
        "documents": int(overall["documents"]),
        "outcomes": {o: int(counts.get(o, 0)) for o in OUTCOMES},
        "recommended_threshold": result.recommended_threshold,
        "fields": _fields(result.fields),
    }
    return Scoring(metrics=metrics, cells=_cells(result.cells))


def _fields(table: pd.DataFrame) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for record in table.sort_values("field").to_dict("records"):
        entry: dict[str, Any] = {
            "type": str(record["type"]),
            "weight": float(record["weight"]),
            "critical": bool(record["critical"]),
            "support": int(record["support"]),
            "cells": int(record["n_cells"]),
            **{o: int(record[o]) for o in OUTCOMES},
        }
        entry.update({k: _number(record[k]) for k in _FIELD_FIGURES})
        out[str(record["field"])] = entry
    return out


def _cells(cells: pd.DataFrame) -> tuple[Cell, ...]:
    ordered = cells.assign(
        item=cells["item"].astype(str), field=cells["field"].astype(str)
    ).sort_values(["item", "field", "row"], kind="stable")
    return tuple(
        Cell(
            item_id=item,
            field=field,
            row=int(row) if "[]." in field else None,
            expected=plain(expected),
            predicted=plain(predicted),
            outcome=str(outcome),
            confidence=_number(confidence),
            score=_number(cell_score),
        )
        for item, field, row, expected, predicted, outcome, confidence, cell_score in zip(
            ordered["item"],
            ordered["field"],
            ordered["row"],
            ordered["expected"],
            ordered["predicted"],
            ordered["outcome"],
            ordered["confidence"],
            ordered["score"],
            strict=True,
        )
    )
