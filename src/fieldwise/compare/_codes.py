"""The scored cells as integer codes: keys numbered in sorted order, outcomes as indices into
:data:`~fieldwise.compare.score._outcomes.OUTCOMES`. Every table is counted over these codes
with numpy, never through pandas group-bys of strings."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise.compare.score._outcomes import OK_OUTCOMES, OUTCOMES

__all__ = ["CellBlock", "CodedCells", "outcome_codes", "outcome_in", "sorted_codes"]


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
    """Whether each outcome code is one of ``outcomes`` (-1, no outcome, is none of them): a
    comparison per outcome, several times cheaper than ``isin`` or a table lookup, which
    casts every code to an index first."""
    out = np.zeros(codes.shape, dtype=np.bool_)
    for outcome in outcomes:
        out |= codes == OUTCOMES.index(outcome)
    return out


@dataclass(frozen=True)
class CellBlock:
    """Cells of one version, in cell order: a wide scorer's column (one field, each document
    at most once) or a version's long cells (a field per cell)."""

    version: int
    #: the field code of every cell, or one code for all of them (a column)
    field: int | npt.NDArray[np.int64]
    item: npt.NDArray[np.int64]
    #: code into :data:`OUTCOMES`, -1 for none
    outcome: npt.NDArray[np.signedinteger[Any]]
    #: each cell's score; ``None``: 1.0 where the outcome is ok, else 0.0 (no partial credit)
    score: npt.NDArray[np.float64] | None
    #: each cell's confidence (NaN: none); ``None``: no cell has one
    confidence: npt.NDArray[np.float64] | None
    weight: float | npt.NDArray[np.float64]
    #: each cell's row in the frame it came from (long cells); ``None`` for a column
    position: npt.NDArray[np.int64] | None = None

    @property
    def column(self) -> bool:
        """Whether the block is one field with each document at most once."""
        return isinstance(self.field, int)

    @property
    def ok(self) -> npt.NDArray[np.bool_]:
        """Whether each cell is correct or both_empty."""
        return outcome_in(self.outcome, OK_OUTCOMES)

    @cached_property
    def counts(self) -> npt.NDArray[np.int64]:
        """How many cells have each outcome (in :data:`OUTCOMES` order): a comparison per
        outcome, several times cheaper than a bincount, which casts every code first."""
        found = [np.count_nonzero(self.outcome == k) for k in range(len(OUTCOMES))]
        return np.array(found, dtype=np.int64)


@dataclass(frozen=True)
class CodedCells:
    """Scored cells as integer codes, in blocks (:class:`CellBlock`) in version order: what
    the statistics are counted from. Labels are sorted strings, each used by some cell."""

    versions: npt.NDArray[np.str_]
    #: (an Index of a wide frame's documents: no string array of a million ids)
    items: npt.NDArray[Any] | pd.Index[Any]
    fields: npt.NDArray[np.str_]
    blocks: tuple[CellBlock, ...]

    @classmethod
    def of(cls, cells: pd.DataFrame) -> CodedCells:
        """Long cells (:func:`~fieldwise.compare.score_cells` output) as one block per
        version, keys numbered in sorted order (:func:`sorted_codes`). Cells without a
        ``score``, ``confidence`` or ``weight`` column score by their outcome, have no
        confidence and weigh 1.0."""
        version, versions = sorted_codes(cells["version"])
        item, items = sorted_codes(cells["item"])
        field, fields = sorted_codes(cells["field"])
        outcome = outcome_codes(cells)
        score, confidence, weight = (
            cells[name].to_numpy(dtype=np.float64) if name in cells.columns else None
            for name in ("score", "confidence", "weight")
        )
        blocks = []
        for code in range(len(versions)):
            at = np.flatnonzero(version == code)
            blocks.append(
                CellBlock(
                    code,
                    field[at],
                    item[at],
                    outcome[at],
                    None if score is None else score[at],
                    None if confidence is None else confidence[at],
                    1.0 if weight is None else weight[at],
                    at,
                )
            )
        return cls(versions, items, fields, tuple(blocks))

    def code_of(self, version: str | None) -> int:
        """The code of ``version``, -1 when no cell has it."""
        where = np.flatnonzero(self.versions == version)
        return int(where[0]) if len(where) else -1

    def of_version(self, code: int) -> list[CellBlock]:
        """The blocks of the version of ``code``."""
        return [b for b in self.blocks if b.version == code]
