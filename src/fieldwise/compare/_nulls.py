"""All-null columns: a field the candidate leaves empty on every document where the baseline
had a value. Missed values already count against it, but when the baseline got few of them
right the flips are too few to be significant, and a whole column silently lost must not pass."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise.compare._metrics import outcome_codes, outcome_in

__all__ = ["EMPTY_COLUMN_COLUMNS", "empty_columns"]

EMPTY_COLUMN_COLUMNS = ("candidate", "field", "baseline_documents", "expected_documents")

_HAS_VALUE = ("correct", "wrong", "spurious")
_EXPECTED = ("correct", "wrong", "missed")


def _codes(column: pd.Series[Any], named: bool = True) -> tuple[npt.NDArray[np.int64], list[str]]:
    """Integer codes of a key column and, when ``named``, the names they stand for."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = np.asarray(column.cat.codes.to_numpy(), dtype=np.int64)
        return codes, [str(c) for c in column.cat.categories] if named else []
    found, uniques = pd.factorize(column)
    return np.asarray(found, dtype=np.int64), [str(u) for u in uniques] if named else []


def empty_columns(cells: pd.DataFrame, baseline: str, candidates: Sequence[str]) -> pd.DataFrame:
    """Per candidate, the fields it predicts nothing for on any document where ``baseline``
    predicted something (at least one such document). ``baseline_documents`` counts those
    documents, ``expected_documents`` the documents with an expected value for the field."""
    if not candidates:
        return pd.DataFrame(columns=list(EMPTY_COLUMN_COLUMNS))
    v, versions = _codes(cells["version"])
    f, fields = _codes(cells["field"])
    i, _ = _codes(cells["item"], named=False)
    outcome = outcome_codes(cells)
    value, expected = outcome_in(outcome, _HAS_VALUE), outcome_in(outcome, _EXPECTED)
    names = {name: k for k, name in enumerate(versions)}
    if baseline not in names:
        return pd.DataFrame(columns=list(EMPTY_COLUMN_COLUMNS))
    # one unit per (field, item) as an integer key, hashed once: no strings, no groupby
    stride = int(i.max()) + 1 if len(i) else 1
    span = (int(f.max()) + 1 if len(f) else 1) * stride
    dense = span <= 8 * len(i) + 1_000_000 and (not len(i) or min(f.min(), i.min()) >= 0)
    if dense:  # dense enough: the key itself is the unit
        inverse, units = f * stride + i, span
        unit_field = np.arange(span, dtype=np.int64) // stride
    else:
        inverse, unit = pd.factorize(f * stride + i)
        units = len(unit)
        unit_field = np.asarray(unit, dtype=np.int64) // stride
    rows = []

    def per_unit(version: int) -> tuple[npt.NDArray[np.bool_], ...]:
        mine = v == version
        present = np.zeros(units, dtype=np.bool_)
        has_value = np.zeros(units, dtype=np.bool_)
        has_expected = np.zeros(units, dtype=np.bool_)
        present[inverse[mine]] = True
        has_value[inverse[mine & value]] = True
        has_expected[inverse[mine & expected]] = True
        return present, has_value, has_expected

    base_present, base_value, base_expected = per_unit(names[baseline])
    order = sorted(range(len(fields)), key=fields.__getitem__)
    had = np.bincount(unit_field[base_value], minlength=len(fields))
    expected_docs = np.bincount(unit_field[base_present & base_expected], minlength=len(fields))
    for candidate in candidates:
        if candidate not in names or not (v == names[candidate]).any():
            continue
        _, cand_value, _ = per_unit(names[candidate])
        kept = np.bincount(unit_field[base_value & cand_value], minlength=len(fields))
        for k in order:
            if had[k] and not kept[k]:
                rows.append(
                    {
                        "candidate": candidate,
                        "field": fields[k],
                        "baseline_documents": int(had[k]),
                        "expected_documents": int(expected_docs[k]),
                    }
                )
    return pd.DataFrame(rows, columns=list(EMPTY_COLUMN_COLUMNS))
