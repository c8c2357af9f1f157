"""Confidence: accuracy and coverage above thresholds, calibration, the threshold to recommend.

A *prediction* is a cell with a predicted value (correct, wrong or spurious). At threshold t the
predictions with confidence >= t are *accepted* (auto-approved, no human review):
coverage = accepted / all predictions (those without a confidence are never accepted), and
accuracy = correct / accepted (the precision of what is auto-accepted).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise.compare._codes import CodedCells, outcome_in
from fieldwise.compare.score._outcomes import OUTCOMES

__all__ = [
    "SWEEP_THRESHOLDS",
    "Predictions",
    "calibration_table",
    "confidence_sweep",
    "predictions",
    "recommend_threshold",
]

SWEEP_THRESHOLDS = tuple(round(t / 20, 2) for t in range(21))
_PREDICTED = ("correct", "wrong", "spurious")
_CORRECT = OUTCOMES.index("correct")
_NONE = np.zeros(0, dtype=np.float64)


#: Per version with a prediction: the version, its number of predictions, and the confidence
#: of each prediction that has one with whether it is correct (in cell order).
Predictions = tuple[Any, int, npt.NDArray[np.float64], npt.NDArray[np.bool_]]


def predictions(cells: pd.DataFrame | CodedCells) -> Iterator[Predictions]:
    """The :data:`Predictions` of each version with a prediction, in sorted order (the cells
    as :func:`~fieldwise.compare.score_cells` gives them, or as codes). Integer codes, no
    grouping."""
    c = cells if isinstance(cells, CodedCells) else CodedCells.of(cells)
    for code, version in enumerate(c.versions.tolist()):
        total, confidences, correct = 0, [_NONE], [np.zeros(0, dtype=np.bool_)]
        for b in c.of_version(code):
            if b.confidence is None:  # a count is all it gives
                total += int(b.counts[[OUTCOMES.index(o) for o in _PREDICTED]].sum())
                continue
            predicted = outcome_in(b.outcome, _PREDICTED)
            total += int(np.count_nonzero(predicted))
            conf, outcome = b.confidence[predicted], b.outcome[predicted]
            known = ~np.isnan(conf)  # NaN is never accepted
            confidences.append(conf[known])
            correct.append(outcome[known] == _CORRECT)
        if total:
            yield str(version), total, np.concatenate(confidences), np.concatenate(correct)


def confidence_sweep(
    found: Iterable[Predictions], thresholds: tuple[float, ...] = SWEEP_THRESHOLDS
) -> pd.DataFrame:
    """Per version of ``found`` and threshold: accepted predictions, coverage and accuracy
    above it."""
    rows = []
    cuts = np.asarray(thresholds, dtype=np.float64)
    rank = np.empty(len(cuts), dtype=np.int64)
    rank[np.argsort(cuts, kind="stable")] = np.arange(len(cuts))
    for version, total, conf, correct in found:
        # one pass: at = how many thresholds are <= each confidence, so a prediction is
        # accepted at the j-th smallest threshold exactly when at > j
        at = np.searchsorted(np.sort(cuts), conf, side="right")
        accepted = np.cumsum(np.bincount(at, minlength=len(cuts) + 1)[::-1])[::-1]
        right = np.cumsum(np.bincount(at[correct], minlength=len(cuts) + 1)[::-1])[::-1]
        for t, j in zip(thresholds, rank.tolist(), strict=True):
            n = int(accepted[j + 1])
            rows.append(
                {
                    "version": version,
                    "threshold": float(t),
                    "accepted": n,
                    "coverage": n / total if total else 0.0,
                    # the mean of booleans: exact count over n, as numpy's mean gives it
                    "accuracy": int(right[j + 1]) / n if n else 0.0,
                }
            )
    return pd.DataFrame(rows, columns=["version", "threshold", "accepted", "coverage", "accuracy"])


def recommend_threshold(
    confidence: npt.NDArray[np.float64],
    correct: npt.NDArray[np.bool_],
    target_precision: float,
    *,
    total: int | None = None,
) -> tuple[float | None, float, float]:
    """The lowest threshold whose accepted predictions reach ``target_precision``.

    Candidates are the observed confidences (NaN is never accepted); coverage is over
    ``total`` predictions (default: every one given). Returns (threshold or None, precision,
    coverage).
    """
    known = ~np.isnan(confidence)
    conf, ok = (confidence, correct) if known.all() else (confidence[known], correct[known])
    total = len(confidence) if total is None else total
    if not len(conf):
        return None, 0.0, 0.0
    # any order of equal confidences will do: only the positions where a value ends are read,
    # and the counts there do not depend on it (so no stable sort, which is twice as slow)
    conf, ok = _descending(conf, ok)
    precision = np.cumsum(ok) / np.arange(1, len(ok) + 1)
    # the set {conf >= v} ends at the last position holding v
    last = np.r_[conf[1:] != conf[:-1], True]
    reach = last & (precision >= target_precision - 1e-12)
    if not reach.any():
        return None, 0.0, 0.0
    pos = int(np.flatnonzero(reach)[-1])
    return float(conf[pos]), float(precision[pos]), (pos + 1) / total


def _descending(
    conf: npt.NDArray[np.float64], ok: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """``conf`` from highest to lowest with each value's ``ok`` (equal values in any order).
    Confidences in [+0, 2) (bit patterns below 2**62, ordered as the numbers are) are sorted
    as one integer each, the pattern shifted left with ``ok`` in the freed bit: a sort, not an
    argsort and two gathers. Anything else (-0.0, negatives, 2 and more) by argsort."""
    bits = conf.view(np.int64)
    if int(bits.min()) < 0 or int(bits.max()) >= 1 << 62:
        order = np.argsort(-conf)
        return conf[order], ok[order]
    keys = (bits << 1) | ok.astype(np.int64)
    keys.sort()
    keys = keys[::-1]
    return (keys >> 1).view(np.float64), (keys & 1).astype(np.bool_)


def calibration_table(
    found: Iterable[Predictions], *, target_precision: float = 0.95, bins: int = 10
) -> pd.DataFrame:
    """Per version of ``found``: predictions, those with a confidence, expected calibration
    error over ``bins`` equal-width bins (sum of bin share x |accuracy - mean confidence|), and
    the recommended ``confidence_threshold`` with its precision and coverage (``NaN`` when none
    reaches it)."""
    rows = []
    for version, total, conf, correct in found:
        ece = 0.0
        if len(conf):
            c, k = np.clip(conf, 0.0, 1.0), correct.astype(np.float64)
            which = np.minimum((c * bins).astype(np.int64), bins - 1)
            n = np.bincount(which, minlength=bins)
            acc = np.bincount(which, weights=k, minlength=bins)
            mean = np.bincount(which, weights=c, minlength=bins)
            filled = n > 0
            ece = float(np.sum(np.abs(acc[filled] - mean[filled])) / len(conf))
        threshold, precision, coverage = recommend_threshold(
            conf, correct, target_precision, total=total
        )
        rows.append(
            {
                "version": version,
                "predictions": total,
                "with_confidence": len(conf),
                "ece": ece,
                "target_precision": float(target_precision),
                "recommended_threshold": np.nan if threshold is None else threshold,
                "precision_at_threshold": precision,
                "coverage_at_threshold": coverage,
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            "version",
            "predictions",
            "with_confidence",
            "ece",
            "target_precision",
            "recommended_threshold",
            "precision_at_threshold",
            "coverage_at_threshold",
        ],
    )
