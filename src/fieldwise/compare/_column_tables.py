"""Every table of a comparison from wide columns scored one by one, without a cell per row.

Each (version, field) column pair scored by :mod:`~fieldwise.compare._columnwise` leaves three
arrays over the sorted documents: whether the document has a cell there, its outcome code and
its score. Every table counts over those arrays (a bincount per column, a running sum per
document); the long cells (ten million rows for 500k documents x 20 fields) are laid out only
when ``result.cells`` is read. Sums of floats are added in the cells' order (item, then field),
so every figure is the one :class:`~fieldwise.compare._tables.CellTables` gives to the last
bit; ``tests/compare/test_columnwise.py`` holds them equal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise.compare._bootstrap import (
    MAX_WEIGHT_CLASSES,
    BootstrapInterval,
    bootstrap_of_counts,
)
from fieldwise.compare._confidence import Predictions
from fieldwise.compare._metrics import document_rows, field_table, overall_table
from fieldwise.compare._nulls import EMPTY_COLUMN_COLUMNS
from fieldwise.compare._outcomes import OK_OUTCOMES, OUTCOMES
from fieldwise.compare._spec import FieldSpec
from fieldwise.compare._stats import TRANSITIONS, unit_rows

__all__ = ["ColumnTables", "ScoredColumn", "ScoredColumns", "ScoredVersion"]

BoolArray = npt.NDArray[np.bool_]
_N = len(OUTCOMES)
#: The outcome code of a document without a cell in a column.
NO_CELL = _N


def _table(outcomes: tuple[str, ...]) -> BoolArray:
    """Per outcome code (and NO_CELL, never marked): whether it is one of ``outcomes``."""
    table = np.zeros(_N + 1, dtype=np.bool_)
    table[[OUTCOMES.index(o) for o in outcomes]] = True
    return table


_OK = _table(OK_OUTCOMES)
_BAD = _table(tuple(o for o in OUTCOMES if o not in OK_OUTCOMES))
_VALUE = _table(("correct", "wrong", "spurious"))  # a predicted value
_EXPECTED = _table(("correct", "wrong", "missed"))
_OK_SCORE = _OK.astype(np.float64)
_SCORED = _table(tuple(o for o in OUTCOMES if o != "both_empty"))  # what mean_score reads


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

    def __post_init__(self) -> None:
        # a count per outcome (a bincount would first copy the int8 codes to int64)
        counts = [np.count_nonzero(self.outcome == k) for k in range(_N)]
        self.counts: npt.NDArray[np.float64] = np.array(counts, dtype=np.float64)

    @property
    def partial(self) -> bool:
        """Whether scores may be partial credit, not just 0 / 1."""
        return self.partial_score is not None

    @property
    def score(self) -> npt.NDArray[np.float64]:
        """Each document's score (0.0 where no cell)."""
        if self.partial_score is not None:
            return self.partial_score
        out: npt.NDArray[np.float64] = _OK_SCORE[self.outcome]
        return out

    def where(self, table: BoolArray) -> BoolArray:
        """Cells whose outcome is one marked in ``table`` (a :func:`_table`): by comparing
        the codes with the fewer of the marked or unmarked ones (a gather through the table
        would first copy the int8 codes to int64)."""
        marked = bool(table.sum() * 2 <= len(table))
        out = np.zeros(len(self.outcome), dtype=np.bool_)
        for code in np.flatnonzero(table == marked).tolist():
            out |= self.outcome == code
        return out if marked else ~out

    def score_sum(self) -> float:
        """The sum of the scores of cells that are not both_empty, added one by one in
        document order (as a bincount over the cells adds them)."""
        if self.partial_score is None:  # a score of 1 is exactly a correct cell: a count
            return float(self.counts[OUTCOMES.index("correct")])
        scored = self.where(_SCORED).view(np.int8)
        return float(np.bincount(scored, weights=self.partial_score, minlength=2)[1])


@dataclass
class ScoredVersion:
    """The scored columns of one version (fields with at least one cell, in field order)."""

    version: int  # code among ScoredColumns.versions
    columns: list[ScoredColumn]


@dataclass
class ScoredColumns:
    """Scored wide columns and the keys of the cells they stand for."""

    versions: pd.CategoricalDtype  # the cells' version categories
    items: pd.CategoricalDtype  # the cells' item categories (documents with a cell)
    fields: pd.CategoricalDtype  # the cells' field categories
    item_code: npt.NDArray[np.int64]  # per sorted document: its item code (-1: no cell)
    scored: list[ScoredVersion]  # the compared versions, in version order

    def light(self) -> pd.DataFrame:
        """The cells (version, item, field order) without ``expected`` / ``predicted``."""
        parts: dict[str, list[npt.NDArray[Any]]] = {
            k: [] for k in ("version", "item", "field", "score", "outcome", "weight")
        }
        for version in self.scored:
            keep, every = self.keep(version)
            n, width = len(self.item_code), len(version.columns)

            def kept(values: npt.NDArray[Any], every: bool = every, keep: Any = keep) -> Any:
                return values if every else values[keep]

            fields = np.array([c.field for c in version.columns], dtype=np.int64)
            field = kept(np.tile(fields, n))
            parts["field"].append(field)
            parts["item"].append(kept(np.repeat(self.item_code, width)))
            parts["version"].append(np.full(len(field), version.version, dtype=np.int64))
            parts["outcome"].append(kept(_stacked([c.outcome for c in version.columns])))
            parts["score"].append(kept(_stacked([c.score for c in version.columns])))
            weights = np.array([c.weight for c in version.columns], dtype=np.float64)
            parts["weight"].append(kept(np.tile(weights, n)))
        joined = {k: _concat(v) for k, v in parts.items()}
        size = len(joined["outcome"])
        return pd.DataFrame(
            {
                "version": _categorical(joined["version"], self.versions),
                "item": _categorical(joined["item"], self.items),
                "field": _categorical(joined["field"], self.fields),
                "row": np.zeros(size, dtype=np.int64),
                "confidence": np.full(size, np.nan),
                "score": np.asarray(joined["score"], dtype=np.float64),
                "outcome": pd.Categorical.from_codes(
                    np.asarray(joined["outcome"], dtype=np.int8), categories=pd.Index(OUTCOMES)
                ),
                "weight": np.asarray(joined["weight"], dtype=np.float64),
            },
            copy=False,  # fresh arrays: no copy into one block per dtype
        )

    def empty(self) -> pd.DataFrame:
        """No cells, with every cell column and the cells' dtypes."""
        nothing = np.zeros(0, dtype=np.int64)
        return pd.DataFrame(
            {
                "version": _categorical(nothing, self.versions),
                "item": _categorical(nothing, self.items),
                "field": _categorical(nothing, self.fields),
                "row": nothing,
                "confidence": np.zeros(0),
                "score": np.zeros(0),
                "outcome": pd.Categorical.from_codes(nothing, categories=pd.Index(OUTCOMES)),
                "weight": np.zeros(0),
                "expected": np.zeros(0, dtype=object),
                "predicted": np.zeros(0, dtype=object),
            }
        )

    def keep(self, version: ScoredVersion) -> tuple[BoolArray, bool]:
        """Which (document, field) of ``version``'s columns, document-major, are cells, and
        whether all of them are (the usual case: no selection needed)."""
        keep = _stacked([c.has for c in version.columns]).astype(np.bool_)
        return keep, bool(keep.all())


def _stacked(columns: list[npt.NDArray[Any]]) -> npt.NDArray[Any]:
    if not columns:
        return np.zeros(0)
    return np.stack(columns, axis=1).ravel()


def _concat(parts: list[npt.NDArray[Any]]) -> npt.NDArray[Any]:
    if len(parts) == 1:  # one version: no copy of ten million cells
        return parts[0]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _categorical(codes: npt.NDArray[Any], dtype: pd.CategoricalDtype) -> pd.Categorical:
    return pd.Categorical.from_codes(np.asarray(codes, dtype=np.int64), dtype=dtype, validate=False)


def _exact_sums(weights: list[float], cells: int) -> bool:
    """Whether every sum of up to ``cells`` of these weights is exact in float64 (each a
    multiple of 2**-20 and the total far below 2**53): then the order of adding is moot."""
    if not weights:
        return True
    scaled = [w * 2.0**20 for w in weights]
    return all(s.is_integer() for s in scaled) and max(map(abs, scaled)) * cells < 2.0**52


class ColumnTables:
    """Every table of :class:`ScoredColumns` (see
    :class:`~fieldwise.compare._tables.ScoredTables`)."""

    def __init__(self, scored: ScoredColumns, cells: Callable[[], pd.DataFrame]) -> None:
        self.scored = scored
        self._cells = cells
        self._by_name = {str(scored.versions.categories[v.version]): v for v in scored.scored}

    def _columns(self, name: str) -> dict[int, ScoredColumn]:
        version = self._by_name.get(name)
        return {} if version is None else {c.field: c for c in version.columns}

    def fields(self, specs: Mapping[str, FieldSpec], confidence: float) -> pd.DataFrame:
        width = len(self.scored.fields.categories)
        groups = len(self.scored.versions.categories) * width
        counts = np.zeros((groups, _N))
        score_sum = np.zeros(groups)
        for version in self.scored.scored:
            for column in version.columns:
                group = version.version * width + column.field
                counts[group] = column.counts
                score_sum[group] = column.score_sum()
        return field_table(
            self.scored.versions.categories,
            self.scored.fields.categories,
            counts,
            score_sum,
            specs,
            confidence,
        )

    def documents(self) -> pd.DataFrame:
        versions, items, n_cells, n_ok = [], [], [], []
        for version in self.scored.scored:
            # counted in the narrowest integers that hold them, written out as int64
            dtype = np.int16 if len(version.columns) < 2**15 else np.int64
            cells: npt.NDArray[np.signedinteger[Any]] = np.zeros(len(self.scored.item_code), dtype)
            ok: npt.NDArray[np.signedinteger[Any]] = np.zeros(len(self.scored.item_code), dtype)
            for column in version.columns:
                cells += column.has
                ok += column.where(_OK)
            present = cells > 0
            items.append(self.scored.item_code[present])
            versions.append(np.full(len(items[-1]), version.version, dtype=np.int64))
            n_cells.append(cells[present])
            n_ok.append(ok[present])
        return document_rows(
            _categorical(_concat(versions), self.scored.versions),
            _categorical(_concat(items), self.scored.items),
            _concat(n_cells),
            _concat(n_ok),
        )

    def overall(self, documents: pd.DataFrame, confidence: float) -> pd.DataFrame:
        size = len(self.scored.versions.categories)
        weighted, counted = np.zeros((size, _N)), np.zeros((size, _N))
        for version in self.scored.scored:
            counts = [c.counts for c in version.columns]
            weights = [c.weight for c in version.columns]
            if counts:
                counted[version.version] = np.sum(counts, axis=0)
            if _exact_sums(weights, len(self.scored.item_code) * len(weights)):
                for count, weight in zip(counts, weights, strict=True):
                    weighted[version.version] += count * weight
            else:  # inexact weights: added cell by cell in the cells' order
                keep, _ = self.scored.keep(version)
                outcome = _stacked([c.outcome for c in version.columns])[keep]  # no NO_CELL
                each = np.tile(np.array(weights), len(self.scored.item_code))[keep]
                weighted[version.version] = np.bincount(outcome, weights=each, minlength=_N)
        return overall_table(
            self.scored.versions.categories, weighted, counted, documents, confidence=confidence
        )

    def predictions(self) -> Iterator[Predictions]:
        # wide frames carry no confidence: every prediction is one without
        for version in self.scored.scored:
            total = sum(int(c.counts[_VALUE[:_N]].sum()) for c in version.columns)
            if total:
                label = self.scored.versions.categories[version.version]
                yield label, total, np.zeros(0), np.zeros(0, dtype=np.bool_)

    def flips(self, baseline: str, candidate: str) -> tuple[pd.DataFrame, pd.DataFrame]:
        base, cand = self._columns(baseline), self._columns(candidate)
        names = self.scored.fields.categories
        fields, items, ok_b, ok_c = [], [], [], []
        counts = np.zeros((len(names), len(TRANSITIONS)), dtype=np.int64)
        for field in range(len(names)):
            sides = [c for c in (base.get(field), cand.get(field)) if c is not None]
            if not sides:
                continue
            present = np.logical_or.reduce([c.has for c in sides])
            b, c = (
                ~side.where(_BAD)[present] if side is not None else np.ones(present.sum(), bool)
                for side in (base.get(field), cand.get(field))
            )
            items.append(self.scored.item_code[present])
            fields.append(np.full(len(b), field, dtype=np.int64))
            ok_b.append(b)
            ok_c.append(c)
            transition = np.select([b & c, b & ~c, ~b & c], [0, 1, 2], default=3)
            counts[field] = np.bincount(transition, minlength=len(TRANSITIONS))
        units = unit_rows(
            _categorical(_concat(fields), self.scored.fields),
            _categorical(_concat(items), self.scored.items),
            _concat(ok_b).astype(np.bool_),
            _concat(ok_c).astype(np.bool_),
        )
        index = pd.Index(names, name="field")
        return units, pd.DataFrame(counts, index=index, columns=list(TRANSITIONS))

    def empty_columns(self, baseline: str, candidates: Sequence[str]) -> pd.DataFrame:
        rows: list[dict[str, Any]] = []
        base = self._columns(baseline)
        if not candidates or baseline not in self._by_name:
            return pd.DataFrame(rows, columns=list(EMPTY_COLUMN_COLUMNS))
        names = [str(f) for f in self.scored.fields.categories]
        for candidate in candidates:
            cand = self._columns(candidate)
            if not cand:
                continue
            for k in sorted(range(len(names)), key=names.__getitem__):
                column = base.get(k)
                had = column.where(_VALUE) if column is not None else None
                if had is None or not had.any():
                    continue
                other = cand.get(k)
                if other is not None and (had & other.where(_VALUE)).any():
                    continue
                assert column is not None
                rows.append(
                    {
                        "candidate": candidate,
                        "field": names[k],
                        "baseline_documents": int(had.sum()),
                        "expected_documents": int(column.where(_EXPECTED).sum()),
                    }
                )
        return pd.DataFrame(rows, columns=list(EMPTY_COLUMN_COLUMNS))

    def bootstrap(
        self, baseline: str, candidate: str, *, seed: int, n_resamples: int
    ) -> BootstrapInterval:
        sides = [list(self._columns(name).values()) for name in (baseline, candidate)]
        in_pair = np.zeros(len(self.scored.item_code), dtype=np.bool_)
        for column in sides[0] + sides[1]:
            in_pair |= column.has
        codes = self.scored.item_code[in_pair]
        items = np.asarray(self.scored.items.categories[codes].to_numpy(dtype=object), dtype=str)
        found = sorted({float(c.weight) for c in sides[0] + sides[1]})
        weights = tuple(found) if len(found) <= MAX_WEIGHT_CLASSES else ()
        width = 2 * len(weights) if weights else 2
        values = np.zeros((len(items), 2 * width), dtype=np.int64 if weights else np.float64)
        for side, columns in enumerate(sides):
            for column in columns:
                ok = column.where(_OK)[in_pair]
                has = column.has[in_pair]
                if weights:
                    at = side * width + 2 * weights.index(float(column.weight))
                    values[:, at] += ok
                    values[:, at + 1] += has
                else:  # weighted sums, added field by field as the cells come
                    values[:, side * width] += np.where(ok, column.weight, 0.0)
                    values[:, side * width + 1] += np.where(has, column.weight, 0.0)
        return bootstrap_of_counts(items, weights, values, seed=seed, n_resamples=n_resamples)

    def confident_wrong(self, min_confidence: float) -> bool:
        return False  # wide frames carry no confidence

    def cells(self) -> Callable[[], pd.DataFrame]:
        return self._cells

    def suspect_cells(self, needed: bool) -> pd.DataFrame:
        if needed:
            return self._cells()
        return self.scored.empty()
