"""Wide columns scored one by one, as the arrays a wide scorer leaves (the scorer is
:mod:`~fieldwise.compare.score._columnwise`).

Each (version, field) column pair leaves three arrays over the sorted documents: whether the
document has a cell there, its outcome code and its score. :meth:`ScoredColumns.coded` hands
them to the statistics as they are, a block of codes per column (every figure is counted from
those); the long cells, with their values, are laid out only when ``result.cells`` is read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise.compare._codes import CellBlock, CodedCells
from fieldwise.compare.score._outcomes import CELL_COLUMNS, OK_OUTCOMES, OUTCOMES

__all__ = ["NO_CELL", "LazyCells", "ScoredColumn", "ScoredColumns", "ScoredVersion"]

BoolArray = npt.NDArray[np.bool_]
ObjArray = npt.NDArray[np.object_]
_N = len(OUTCOMES)
#: The outcome code of a document without a cell in a column.
NO_CELL = _N


_OK_SCORE = np.zeros(_N + 1)
_OK_SCORE[[OUTCOMES.index(o) for o in OK_OUTCOMES]] = 1.0


@dataclass
class ScoredColumn:
    """One field of one version, over the sorted documents."""

    field: int  # code among ScoredColumns.fields
    name: str
    has: BoolArray  # the document has a cell (either side a value)
    outcome: npt.NDArray[np.int8]  # index into OUTCOMES, NO_CELL where no cell
    #: the scores when they may be partial credit (fuzzy text); else ``None``: a score is then
    #: 1.0 exactly where the outcome is OK (correct, both_empty) and 0.0 elsewhere
    partial_score: npt.NDArray[np.float64] | None
    weight: float

    @property
    def score(self) -> npt.NDArray[np.float64]:
        """Each document's score (0.0 where no cell)."""
        if self.partial_score is not None:
            return self.partial_score
        out: npt.NDArray[np.float64] = _OK_SCORE[self.outcome]
        return out


@dataclass
class ScoredVersion:
    """The scored columns of one version (fields with at least one cell, in field order)."""

    version: int  # code among ScoredColumns.versions
    columns: list[ScoredColumn]


@dataclass
class ScoredColumns:
    """Scored wide columns and the keys of the cells they stand for."""

    # the cells' keys, each used by a cell (not categorical dtypes, which check their
    # categories are unique: for a million documents, a tenth of a second the statistics do
    # not need)
    versions: pd.Index[Any]
    items: pd.Index[Any]
    fields: pd.Index[Any]
    item_code: npt.NDArray[np.int64]  # per sorted document: its item code (-1: no cell)
    scored: list[ScoredVersion]  # the compared versions, in version order

    def coded(self) -> CodedCells:
        """The cells as codes, a block per column: the statistics, and so every figure, are
        counted from these without laying the cells out."""
        blocks = tuple(
            CellBlock(
                version.version,
                c.field,
                self.item_code if c.has.all() else self.item_code[c.has],
                c.outcome if c.has.all() else c.outcome[c.has],
                None if c.partial_score is None else c.partial_score[c.has],
                None,
                c.weight,
            )
            for version in self.scored
            for c in version.columns
        )
        versions, fields = (np.asarray(i, dtype=str) for i in (self.versions, self.fields))
        return CodedCells(versions, self.items, fields, blocks)


@dataclass
class LazyCells:
    """Lays out the scored cells with their values, when ``result.cells`` is first read."""

    scored: ScoredColumns
    #: the expected and predicted values of (the k-th of ``scored.scored``, field)
    values_of: Callable[[int, str], tuple[ObjArray, ObjArray]]

    def __call__(self) -> pd.DataFrame:
        """The cells, in version, item, field order."""
        names = ("version", "item", "field", "score", "outcome", "weight", "expected", "predicted")
        parts: dict[str, list[npt.NDArray[Any]]] = {k: [] for k in names}
        scored = self.scored
        for k, version in enumerate(scored.scored):
            # which (document, field), document-major, are cells: all, usually (no selection)
            keep = _stacked([c.has for c in version.columns]).astype(np.bool_)
            every = bool(keep.all())
            n, width = len(scored.item_code), len(version.columns)

            def kept(values: npt.NDArray[Any], every: bool = every, keep: Any = keep) -> Any:
                return values if every else values[keep]

            fields = np.array([c.field for c in version.columns], dtype=np.int64)
            field = kept(np.tile(fields, n))
            parts["field"].append(field)
            parts["item"].append(kept(np.repeat(scored.item_code, width)))
            parts["version"].append(np.full(len(field), version.version, dtype=np.int64))
            parts["outcome"].append(kept(_stacked([c.outcome for c in version.columns])))
            parts["score"].append(kept(_stacked([c.score for c in version.columns])))
            weights = np.array([c.weight for c in version.columns], dtype=np.float64)
            parts["weight"].append(kept(np.tile(weights, n)))
            pairs = [self.values_of(k, c.name) for c in version.columns]
            parts["expected"].append(_stacked([e for e, _ in pairs])[keep])
            parts["predicted"].append(_stacked([p for _, p in pairs])[keep])
        joined = {k: _concat(v) for k, v in parts.items()}
        size = len(joined["outcome"])
        cells = pd.DataFrame(
            {
                "version": _categorical(joined["version"], scored.versions),
                "item": _categorical(joined["item"], scored.items),
                "field": _categorical(joined["field"], scored.fields),
                "row": np.zeros(size, dtype=np.int64),
                "confidence": np.full(size, np.nan),
                "score": np.asarray(joined["score"], dtype=np.float64),
                "outcome": pd.Categorical.from_codes(
                    np.asarray(joined["outcome"], dtype=np.int8), categories=pd.Index(OUTCOMES)
                ),
                "weight": np.asarray(joined["weight"], dtype=np.float64),
                "expected": joined["expected"],
                "predicted": joined["predicted"],
            },
            copy=False,  # fresh arrays: no copy into one block per dtype
        )
        return cells.loc[:, list(CELL_COLUMNS)]


def _stacked(columns: list[npt.NDArray[Any]]) -> npt.NDArray[Any]:
    """The columns side by side, read row by row (document-major)."""
    if not columns:
        return np.zeros(0, dtype=object)
    return np.stack(columns, axis=1).ravel()


def _concat(parts: list[npt.NDArray[Any]]) -> npt.NDArray[Any]:
    if len(parts) == 1:  # one version: no copy of ten million cells
        return parts[0]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=object)


def _categorical(codes: npt.NDArray[Any], categories: pd.Index[Any]) -> pd.Categorical:
    dtype = pd.CategoricalDtype(categories)
    return pd.Categorical.from_codes(np.asarray(codes, dtype=np.int64), dtype=dtype, validate=False)
