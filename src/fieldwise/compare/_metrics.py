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

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise.compare._codes import compact, key_codes, key_labels
from fieldwise.compare._intervals import wilson_bounds
from fieldwise.compare._outcomes import OK_OUTCOMES, OUTCOMES
from fieldwise.compare._spec import FieldSpec

__all__ = [
    "document_rows",
    "document_table",
    "field_metrics",
    "field_table",
    "outcome_metrics",
    "overall_metrics",
    "overall_table",
]


def _prf(counts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Precision, recall, F1 for many groups at once (rows of ``counts``, columns in
    :data:`OUTCOMES` order), from the counts: what ``precision_recall_fscore_support`` gives
    with ``zero_division=0.0`` when a wrong cell is one false negative and one false positive
    (tp = correct, fp = wrong + spurious, fn = wrong + missed; F1 = 2tp / (2tp + fp + fn)).
    Not calling scikit-learn spares every fresh process a second of importing it."""
    if counts.shape[0] == 0:
        return np.zeros((0, 3))
    tp = counts[:, OUTCOMES.index("correct")]
    wrong = counts[:, OUTCOMES.index("wrong")]
    fp = wrong + counts[:, OUTCOMES.index("spurious")]
    fn = wrong + counts[:, OUTCOMES.index("missed")]

    def divide(top: npt.NDArray[np.float64], bottom: npt.NDArray[np.float64]) -> Any:
        return np.divide(top, bottom, out=np.zeros_like(top), where=bottom > 0)

    out: npt.NDArray[np.float64] = np.stack(
        [divide(tp, tp + fp), divide(tp, tp + fn), divide(2 * tp, 2 * tp + fp + fn)], axis=1
    ).astype(np.float64)
    return out


def _accuracy(counts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    # over cells, not over the sklearn samples (a wrong cell is two samples there)
    ok = counts[:, [OUTCOMES.index(o) for o in OK_OUTCOMES]].sum(axis=1)
    total = counts.sum(axis=1)
    out: npt.NDArray[np.float64] = np.divide(ok, total, out=np.zeros_like(ok), where=total > 0)
    return out


def _share(
    counts: npt.NDArray[np.float64], num: tuple[str, ...], den: tuple[str, ...]
) -> npt.NDArray[np.float64]:
    """sum(num outcomes) / sum(den outcomes) per row; NaN where the denominator is 0."""
    top = counts[:, [OUTCOMES.index(o) for o in num]].sum(axis=1)
    bottom = counts[:, [OUTCOMES.index(o) for o in den]].sum(axis=1)
    out: npt.NDArray[np.float64] = np.divide(
        top, bottom, out=np.full_like(top, np.nan), where=bottom > 0
    )
    return out


_EXPECTED = ("correct", "wrong", "missed")
_STRICT = ("correct", "wrong", "missed", "spurious")


def field_accuracy(counts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """correct / expected per row of outcome counts (NaN without expected values)."""
    return _share(counts, ("correct",), _EXPECTED)


def strict_accuracy(counts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """correct / (correct + wrong + missed + spurious) per row (NaN when all are 0)."""
    return _share(counts, ("correct",), _STRICT)


def outcome_metrics(counts: Mapping[str, float]) -> dict[str, float]:
    """Field accuracy, strict accuracy, cell accuracy, precision, recall and F1 from (possibly
    weighted) outcome counts (see the module docstring; NaN where a figure has no cells)."""
    row = np.array([[float(counts.get(o, 0.0)) for o in OUTCOMES]])
    p, r, f = _prf(row)[0]
    return {
        "field_accuracy": float(field_accuracy(row)[0]),
        "strict_accuracy": float(strict_accuracy(row)[0]),
        "accuracy": float(_accuracy(row)[0]),
        "precision": float(p),
        "recall": float(r),
        "f1": float(f),
    }


def _codes(column: pd.Series[Any]) -> tuple[npt.NDArray[np.int64], pd.Index[Any]]:
    cat = column.cat if isinstance(column.dtype, pd.CategoricalDtype) else None
    if cat is None:
        categorical = pd.Categorical(column)
        return np.asarray(categorical.codes, dtype=np.int64), pd.Index(categorical.categories)
    return np.asarray(cat.codes, dtype=np.int64), pd.Index(cat.categories)


def outcome_codes(cells: pd.DataFrame) -> npt.NDArray[np.int8]:
    """Each cell's outcome as its index in :data:`OUTCOMES` (no conversion when the column
    already is a categorical of exactly those). The categorical's own int8 codes, not an
    int64 copy per table (8 MB at a million cells): callers index with them, compare them,
    or add them to int64 group keys, which widens the sum."""
    column = cells["outcome"]
    dtype = column.dtype
    if not (isinstance(dtype, pd.CategoricalDtype) and list(dtype.categories) == list(OUTCOMES)):
        column = column.astype(pd.CategoricalDtype(list(OUTCOMES)))
    return np.asarray(column.cat.codes, dtype=np.int8)


def outcome_in(
    codes: npt.NDArray[np.signedinteger[Any]], outcomes: tuple[str, ...]
) -> npt.NDArray[np.bool_]:
    """Whether each outcome code is one of ``outcomes`` (a lookup, cheaper than ``isin``)."""
    table = np.zeros(len(OUTCOMES) + 1, dtype=np.bool_)  # the last entry: code -1 (missing)
    table[[OUTCOMES.index(o) for o in outcomes]] = True
    out: npt.NDArray[np.bool_] = table[codes]
    return out


def _outcome_counts(
    group: npt.NDArray[np.int64],
    groups: int,
    outcome: npt.NDArray[np.signedinteger[Any]],
    weights: npt.NDArray[np.float64] | None = None,
) -> npt.NDArray[np.float64]:
    """(groups x outcomes) counts, or sums of ``weights``, in one bincount."""
    flat = np.bincount(
        group * len(OUTCOMES) + outcome, weights=weights, minlength=groups * len(OUTCOMES)
    )
    return np.asarray(flat, dtype=np.float64).reshape(groups, len(OUTCOMES))


def field_metrics(
    cells: pd.DataFrame, specs: Mapping[str, FieldSpec], *, confidence: float = 0.95
) -> pd.DataFrame:
    """One row per (version, field): type, weight, critical, outcome counts, support, n_cells,
    field accuracy with its Wilson interval at ``confidence``, strict accuracy, cell accuracy,
    precision / recall / f1 (see the module docstring) and ``mean_score``: the mean cell score
    over cells that are not both_empty (partial credit: fuzzy text keeps its similarity; NaN
    when every cell is both_empty)."""
    v, versions = _codes(cells["version"])
    f, fields = _codes(cells["field"])
    o = outcome_codes(cells)
    group = v * len(fields) + f
    n_groups = len(versions) * len(fields)
    counts = _outcome_counts(group, n_groups, o)
    both_empty = OUTCOMES.index("both_empty")
    # zeros in place of both_empty scores: the same sums in the same order, no masked copies
    score = np.where(o != both_empty, cells["score"].to_numpy(dtype=np.float64), 0.0)
    score_sum = np.asarray(np.bincount(group, weights=score, minlength=n_groups), np.float64)
    return field_table(versions, fields, counts, score_sum, specs, confidence)


def field_table(
    versions: pd.Index[Any],
    fields: pd.Index[Any],
    counts: npt.NDArray[np.float64],
    score_sum: npt.NDArray[np.float64],
    specs: Mapping[str, FieldSpec],
    confidence: float,
) -> pd.DataFrame:
    """:func:`field_metrics` from its counts: ``counts`` (outcome counts of each (version,
    field) group, version-major) and ``score_sum`` (each group's sum of the scores of cells
    that are not both_empty, added in cell order)."""
    both_empty = OUTCOMES.index("both_empty")
    score_n = (counts.sum(axis=1) - counts[:, both_empty]).astype(np.int64)
    present = np.flatnonzero(counts.sum(axis=1) > 0)  # sorted by version, then field
    counts = counts[present]
    prf = _prf(counts)
    names = np.asarray(fields)[present % len(fields)]
    found = [specs[str(name)] for name in names]
    whole = counts.astype(np.int64)
    support = whole[:, [OUTCOMES.index(o) for o in _EXPECTED]].sum(axis=1)
    low, high = wilson_bounds(
        counts[:, OUTCOMES.index("correct")], support.astype(np.float64), confidence=confidence
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_score = score_sum[present] / score_n[present]
    # one frame from all its columns: inserting them one by one costs a copy of the names each
    out = pd.DataFrame(
        {
            "version": np.asarray(versions)[present // len(fields)],
            "field": names,
            "type": [spec.type for spec in found],
            "weight": [spec.weight for spec in found],
            "critical": [spec.critical for spec in found],
            **{o: whole[:, k] for k, o in enumerate(OUTCOMES)},
            "support": support,
            "n_cells": counts.sum(axis=1).astype(np.int64),
            "field_accuracy": field_accuracy(counts),
            "field_accuracy_low": low,
            "field_accuracy_high": high,
            "strict_accuracy": strict_accuracy(counts),
            "accuracy": _accuracy(counts),
            "precision": prf[:, 0],
            "recall": prf[:, 1],
            "f1": prf[:, 2],
            "mean_score": mean_score,
        }
    )
    return out.loc[:, _FIELD_COLUMNS]


_FIELD_COLUMNS = [
    "version",
    "field",
    "type",
    "weight",
    "critical",
    *OUTCOMES,
    "support",
    "n_cells",
    "field_accuracy",
    "field_accuracy_low",
    "field_accuracy_high",
    "strict_accuracy",
    "accuracy",
    "precision",
    "recall",
    "f1",
    "mean_score",
]


def document_table(cells: pd.DataFrame) -> pd.DataFrame:
    """One row per (version, item): cells, ok cells and whether all are ok; sorted by
    version, then item (category order for categorical keys)."""
    v, versions, version_dtype = key_codes(cells["version"])
    i, items, item_dtype = key_codes(cells["item"])
    known = (v >= 0) & (i >= 0)  # a missing key is in no group
    if not known.all():
        cells, v, i = cells.loc[known], v[known], i[known]
    inverse, units = compact(v * len(items) + i, len(versions) * len(items))
    ok = outcome_in(outcome_codes(cells), OK_OUTCOMES)
    n_cells = np.bincount(inverse, minlength=len(units))
    n_ok = np.bincount(inverse[ok], minlength=len(units))
    present = np.flatnonzero(n_cells)
    return document_rows(
        key_labels(units[present] // len(items), versions, version_dtype),
        key_labels(units[present] % len(items), items, item_dtype),
        n_cells[present],
        n_ok[present],
    )


def document_rows(
    version: Any, item: Any, n_cells: npt.NDArray[Any], n_ok: npt.NDArray[Any]
) -> pd.DataFrame:
    """The document table of its columns."""
    return pd.DataFrame(
        {
            "version": version,
            "item": item,
            "n_cells": np.asarray(n_cells, dtype=np.int64),
            "n_ok": np.asarray(n_ok, dtype=np.int64),
            "all_correct": np.asarray(n_cells == n_ok, dtype=np.bool_),
        },
        copy=False,
    )


def _document_rates(documents: pd.DataFrame) -> tuple[dict[Any, int], dict[Any, float]]:
    """Documents per version and the share of them with every cell ok (version -> figure)."""
    codes, labels, _ = key_codes(documents["version"])
    known = codes >= 0
    codes = codes[known]
    size = len(labels)
    n = np.bincount(codes, minlength=size)
    ok = np.bincount(
        codes[documents["all_correct"].to_numpy(dtype=np.bool_)[known]], minlength=size
    )
    # count / n: what the mean of the booleans gives (exact sums, one division)
    return (
        {labels[k]: int(n[k]) for k in np.flatnonzero(n).tolist()},
        {labels[k]: int(ok[k]) / int(n[k]) for k in np.flatnonzero(n).tolist()},
    )


def overall_metrics(
    cells: pd.DataFrame, documents: pd.DataFrame, *, confidence: float = 0.95
) -> pd.DataFrame:
    """One row per version: weighted pooled metrics (field accuracy with its Wilson interval,
    strict and cell accuracy, P/R/F1), support, documents and the share of documents with every
    field correct."""
    v, versions = _codes(cells["version"])
    o = outcome_codes(cells)
    weighted = _outcome_counts(v, len(versions), o, cells["weight"].to_numpy(dtype=np.float64))
    counted = _outcome_counts(v, len(versions), o)
    return overall_table(versions, weighted, counted, documents, confidence=confidence)


def overall_table(
    versions: pd.Index[Any],
    weighted: npt.NDArray[np.float64],
    counted: npt.NDArray[np.float64],
    documents: pd.DataFrame,
    *,
    confidence: float,
) -> pd.DataFrame:
    """:func:`overall_metrics` from (versions x outcomes) counts: ``weighted`` sums each
    cell's field weight (added in cell order), ``counted`` counts cells."""
    table = pd.DataFrame(weighted, index=versions, columns=list(OUTCOMES))
    table = table.loc[counted.sum(axis=1) > 0]
    # from the counts: no copy of the expected cells, no groupby
    expected = counted[:, [OUTCOMES.index(x) for x in _EXPECTED]].sum(axis=1)
    support = {version: int(n) for version, n in zip(versions, expected, strict=True) if n > 0}
    n_cells = dict(zip(versions, counted.sum(axis=1).astype(np.int64).tolist(), strict=True))
    n_docs, rate = _document_rates(documents)
    rows = []
    for version, counts in table.iterrows():
        figures = outcome_metrics({o: float(counts[o]) for o in OUTCOMES})
        n = float(support.get(version, 0))
        low, high = wilson_bounds(
            np.array([figures["field_accuracy"] * n]), np.array([n]), confidence=confidence
        )
        rows.append(
            {
                "version": version,
                "support": int(support.get(version, 0)),
                "n_cells": int(n_cells[version]),
                "documents": int(n_docs[version]),
                "all_fields_correct_rate": float(rate[version]),
                **figures,
                "field_accuracy_low": float(low[0]),
                "field_accuracy_high": float(high[0]),
            }
        )
    return pd.DataFrame(rows)
