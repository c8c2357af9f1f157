"""Metrics per field, per version and per document, from scored cells.

Definitions (a *prediction* is a cell with a predicted value; it is the positive class):

- ``correct`` is a true positive; ``spurious`` (a value where none was expected) a false
  positive; ``missed`` (nothing where a value was expected) a false negative; ``wrong`` (a value
  that differs) is both a false positive *and* a false negative; ``both_empty`` is a true negative.
- precision = correct / (correct + wrong + spurious); recall = correct / (correct + wrong + missed);
  F1 their harmonic mean, equal to ``sklearn.metrics.precision_recall_fscore_support`` with
  ``labels=[1]`` and ``zero_division=0.0`` (no predictions gives precision 0).
- support = cells with an expected value (correct + wrong + missed).
- **field accuracy** = correct / expected, expected = cells with a ground-truth value
  (correct + wrong + missed): the headline figure, what Google Document AI and Extend call
  accuracy. Its Wilson interval (``field_accuracy_low`` / ``_high``) is over expected cells.
- **strict accuracy** = correct / (correct + wrong + missed + spurious): field accuracy with
  spurious values (a value where none was expected) counted against it.
- **cell accuracy** (column ``accuracy``) = (correct + both_empty) / all cells: the share of
  cells that need no correction.
- Overall figures pool the cells of all fields, each weighted by its field's ``weight``
  (the overall Wilson interval takes the weighted share over the unweighted count of cells).
- A document is *all correct* when every one of its cells is correct or both_empty.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from fieldwise.compare._codes import CodedCells
from fieldwise.compare.score._outcomes import OK_OUTCOMES, OUTCOMES

__all__ = ["document_table", "outcome_metrics"]


def _ratio(top: float, bottom: float, empty: float) -> float:
    return top / bottom if bottom > 0 else empty


def outcome_metrics(counts: Mapping[str, float]) -> dict[str, float]:
    """Field accuracy, strict accuracy, cell accuracy, precision, recall and F1 from (possibly
    weighted) outcome counts (see the module docstring; NaN where an accuracy has no cells, 0
    where precision, recall or F1 has none). Precision, recall and F1 are what
    ``precision_recall_fscore_support`` gives with ``zero_division=0.0`` when a wrong cell is
    one false negative and one false positive (tp = correct, fp = wrong + spurious,
    fn = wrong + missed; F1 = 2tp / (2tp + fp + fn)): not calling scikit-learn spares every
    fresh process a second of importing it."""
    c = {o: float(counts.get(o, 0.0)) for o in OUTCOMES}
    tp, fp, fn = c["correct"], c["wrong"] + c["spurious"], c["wrong"] + c["missed"]
    expected = c["correct"] + c["wrong"] + c["missed"]
    return {
        "field_accuracy": _ratio(tp, expected, math.nan),
        "strict_accuracy": _ratio(tp, expected + c["spurious"], math.nan),
        # over cells, not over the scikit-learn samples (a wrong cell is two samples there)
        "accuracy": _ratio(sum(c[o] for o in OK_OUTCOMES), sum(c.values()), 0.0),
        "precision": _ratio(tp, tp + fp, 0.0),
        "recall": _ratio(tp, tp + fn, 0.0),
        "f1": _ratio(2 * tp, 2 * tp + fp + fn, 0.0),
    }


def document_table(cells: pd.DataFrame) -> pd.DataFrame:
    """One row per (version, item) with a cell: cells, ok cells and whether all are ok;
    sorted by version, then item."""
    k = CodedCells.of(cells)
    n_items = max(len(k.items), 1)
    n_cells = np.zeros(len(k.versions) * n_items, dtype=np.int64)
    n_ok = np.zeros_like(n_cells)
    for b in k.blocks:
        rows = slice(b.version * n_items, (b.version + 1) * n_items)
        n_cells[rows] += np.bincount(b.item, minlength=n_items)
        n_ok[rows] += np.bincount(b.item[b.ok], minlength=n_items)
    present = np.flatnonzero(n_cells)
    return pd.DataFrame(
        {
            "version": pd.Categorical.from_codes(present // n_items, pd.Index(k.versions)),
            "item": pd.Categorical.from_codes(present % n_items, pd.Index(k.items)),
            "n_cells": n_cells[present].astype(np.int64),
            "n_ok": n_ok[present].astype(np.int64),
            "all_correct": n_cells[present] == n_ok[present],
        }
    )
