"""Confidence sweep, calibration and the recommended threshold.

Six predictions: 0.95 correct, 0.9 correct, 0.8 wrong, 0.7 correct, 0.6 spurious, no confidence
correct. Precision of {conf >= t}: 0.95 -> 1, 0.9 -> 1, 0.8 -> 2/3, 0.7 -> 3/4, 0.6 -> 3/5.
For target 0.75 the lowest threshold is 0.7 (precision 0.75, coverage 4/6); for 0.8 it is 0.9.
ECE over 10 bins: (|2 - 1.85| + 0.8 + |1 - 0.7| + 0.6) / 5 = 0.37. Plus one missed cell (not a
prediction) that must not count.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
import pytest

from fieldwise.compare import (
    calibration_table,
    confidence_sweep,
    predictions,
    recommend_threshold,
    score_cells,
)
from fieldwise.compare.score._frame import FRAME_COLUMNS

ROWS = [
    ("a", "x", "x", 0.95),
    ("b", "x", "x", 0.9),
    ("c", "x", "y", 0.8),
    ("d", "x", "x", 0.7),
    ("e", None, "y", 0.6),
    ("f", "x", "x", math.nan),
    ("g", "x", None, 0.99),
]


def cells() -> pd.DataFrame:
    frame = pd.DataFrame(
        [(i, "f", "v", e, p, c) for i, e, p, c in ROWS], columns=list(FRAME_COLUMNS)
    )
    frame[["expected", "predicted"]] = frame[["expected", "predicted"]].astype(object)
    return score_cells(frame, {})[0]


def test_recommend_threshold() -> None:
    conf = np.array([0.95, 0.9, 0.8, 0.7, 0.6, np.nan])
    ok = np.array([True, True, False, True, False, True])
    threshold, precision, coverage = recommend_threshold(conf, ok, 0.75)
    assert (threshold, precision) == (0.7, 0.75)
    assert coverage == pytest.approx(4 / 6)
    assert recommend_threshold(conf, ok, 0.8)[0] == 0.9
    assert recommend_threshold(conf, ~ok, 0.99) == (None, 0.0, 0.0)


def test_calibration_table() -> None:
    table = calibration_table(predictions(cells()), target_precision=0.75).iloc[0]
    assert table["predictions"] == 6
    assert table["with_confidence"] == 5
    assert table["ece"] == pytest.approx(0.37)
    assert table["recommended_threshold"] == 0.7
    assert table["coverage_at_threshold"] == pytest.approx(4 / 6)


def test_sweep() -> None:
    sweep = confidence_sweep(predictions(cells()), thresholds=(0.0, 0.75, 0.9, 1.0)).set_index(
        "threshold"
    )
    assert sweep["accepted"].tolist() == [5, 3, 2, 0]
    assert sweep["coverage"].tolist() == pytest.approx([5 / 6, 3 / 6, 2 / 6, 0.0])
    assert sweep["accuracy"].tolist() == pytest.approx([3 / 5, 2 / 3, 1.0, 0.0])


def test_recommended_threshold_by_one_integer_sort_is_the_argsort_one() -> None:
    """Confidences in [0, 2) sort as integers with the correctness bit packed in; the
    threshold, precision and coverage are those of the argsort over many ties, zeros and ones,
    and -0.0, negatives and values past 2 (which take the argsort) give them too."""

    def by_argsort(conf: np.ndarray, ok: np.ndarray, total: int, target: float) -> Any:
        order = np.argsort(-conf)
        conf, ok = conf[order], ok[order]
        precision = np.cumsum(ok) / np.arange(1, len(ok) + 1)
        last = np.r_[conf[1:] != conf[:-1], True]
        reach = last & (precision >= target - 1e-12)
        if not reach.any():
            return None, 0.0, 0.0
        pos = int(np.flatnonzero(reach)[-1])
        return float(conf[pos]), float(precision[pos]), (pos + 1) / total

    rng = np.random.default_rng(3)
    for trial in range(240):
        n = int(rng.integers(1, 2000))
        conf = [
            rng.random(n),
            np.round(rng.random(n), 2),
            rng.choice([0.0, 0.5, 0.9, 1.0], n),
            rng.choice([-0.0, 0.0, 0.3, 1.0], n),
            rng.normal(0.5, 1.5, n),
            rng.random(n) * 3,  # no negative, some past 2
        ][trial % 6]
        ok = rng.random(n) < rng.random()
        for target in (0.5, 0.9, 0.95, 1.0):
            got = recommend_threshold(conf, ok, target, total=n + 3)
            assert got == by_argsort(conf, ok, n + 3, target)
