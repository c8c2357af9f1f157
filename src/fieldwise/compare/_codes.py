"""The scored cells as integer codes: keys numbered in sorted order, outcomes as indices into
:data:`~fieldwise.compare.score._outcomes.OUTCOMES`. Every table is counted over these codes
with numpy, never through pandas group-bys of strings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise.compare.score._outcomes import OK_OUTCOMES, OUTCOMES

__all__ = ["CellKeys", "outcome_codes", "outcome_in", "sorted_codes"]


def sorted_codes(keys: pd.Series) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.str_]]:
    """Integer codes of ``keys`` and the labels they index, sorted as strings: the categorical
    codes themselves when ``keys`` is a categorical of sorted strings (what
    :func:`~fieldwise.compare.score_cells` returns; no million-row string conversion), else
    ``pd.factorize`` of the keys as strings. Only labels that occur are kept."""
    dtype = keys.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        categories = dtype.categories
        codes = np.asarray(keys.cat.codes, dtype=np.int64)
        plain = categories.inferred_type == "string" and categories.is_monotonic_increasing
        if plain and (len(codes) == 0 or codes.min() >= 0):
            used = np.bincount(codes, minlength=len(categories)) > 0
            remap = np.cumsum(used) - 1
            labels = np.asarray(categories[used].to_numpy(dtype=object), dtype=str)
            return remap[codes], labels
    found, labels_index = pd.factorize(keys.astype(str), sort=True)
    return found.astype(np.int64), np.asarray(labels_index, dtype=str)


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


@dataclass(frozen=True)
class CellKeys:
    """The scored cells as integer arrays: one pass of pandas, then numpy only (a shard of
    400k cells spent most of its time converting categoricals to strings before). Keys are
    numbered in sorted order (:func:`~fieldwise.compare._codes.sorted_codes`)."""

    version: npt.NDArray[np.int64]
    versions: npt.NDArray[np.str_]
    item: npt.NDArray[np.int64]
    items: npt.NDArray[np.str_]
    field: npt.NDArray[np.int64]
    fields: npt.NDArray[np.str_]
    #: code into :data:`OUTCOMES`, -1 for none
    outcome: npt.NDArray[np.int64]
    #: whether the cell is correct or both_empty
    ok: npt.NDArray[np.bool_]

    @classmethod
    def of(cls, cells: pd.DataFrame) -> CellKeys:
        version, versions = sorted_codes(cells["version"])
        item, items = sorted_codes(cells["item"])
        field, fields = sorted_codes(cells["field"])
        outcome = outcome_codes(cells).astype(np.int64)
        return cls(
            version, versions, item, items, field, fields, outcome, outcome_in(outcome, OK_OUTCOMES)
        )

    def code_of(self, version: str | None) -> int:
        """The code of ``version``, -1 when no cell has it."""
        where = np.flatnonzero(self.versions == version)
        return int(where[0]) if len(where) else -1
