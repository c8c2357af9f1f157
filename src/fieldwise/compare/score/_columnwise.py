"""Wide frames scored column by column, without a long frame of Python objects.

``fieldwise.compare(truth_df, {"v1": df, ...})`` with wide frames (a ``document`` column and
one column per field) is scored here one (version, field) column pair at a time: Arrow string
columns are dictionary-encoded and only their unique values normalized (the comparator's own
rule, :class:`~fieldwise.compare.score._base.CodedComparator`), numeric columns under a number or
currency spec are compared as float arrays, and any other column pair goes through the
comparator with the same Python values the long frame would hold. The cells come out as the
long path lays them out (version, then item, then field; only where either side has a value),
keys as categoricals, but without the ``expected`` / ``predicted`` columns: those are built
when first read (:class:`LazyCells`), since every table is computed without them.

Anything unusual (long frames, dotted or repeated field names, nested or exotic values, keys
that collide as text, array specs) gives ``None`` and takes the general path, which also
raises its errors. ``tests/compare/test_columnwise.py`` holds every frame of the result to the
general path's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa

from fieldwise.compare._result import ComparisonResult, chosen_versions, compare_scored
from fieldwise.compare._spec import FieldSpec
from fieldwise.compare.score._align import ROW_COUNT_COLUMNS
from fieldwise.compare.score._base import BoolArray, CodedComparator, Comparison
from fieldwise.compare.score._column_tables import (
    NO_CELL,
    ScoredColumn,
    ScoredColumns,
    ScoredVersion,
)
from fieldwise.compare.score._comparators import comparator_for
from fieldwise.compare.score._outcomes import (
    CELL_COLUMNS,
    PARALLEL_CELLS,
    cell_specs,
    outcome_codes,
)
from fieldwise.compare.score._threads import thread_map
from fieldwise.compare.score._wide import (
    WideColumn,
    string_codes,
    text_index,
    text_order,
    unique_categories,
    wide_table,
)

__all__ = ["LazyCells", "WideColumns", "compare_columns", "no_row_counts", "wide_columns"]

_STRING_TYPES = ("string", "text", "enum", "date", "boolean")
_AMOUNT_TYPES = ("number", "currency")
ObjArray = npt.NDArray[np.object_]


@dataclass
class _Version:
    name: str
    fields: list[str]
    position: npt.NDArray[np.intp]  # per sorted item: row in this version's frame, -1 if none
    columns: dict[str, WideColumn]
    has: list[BoolArray]  # per field of ``fields``: the item has a cell (either side a value)


@dataclass
class LazyCells:
    """Lays out the scored cells with their values, when ``result.cells`` is first read."""

    scored: ScoredColumns
    sources: list[_Version]  # the version of each of ``scored.scored``
    wide: WideColumns
    #: the cells without values, laid out once for the statistics (their values join them)
    light: pd.DataFrame

    def __call__(self) -> pd.DataFrame:
        expected, predicted = [], []
        for version, source in zip(self.scored.scored, self.sources, strict=True):
            pairs = [self.wide.version_values_of(source, c.name) for c in version.columns]
            keep, _ = self.scored.keep(version)
            expected.append(_stacked([e for e, _ in pairs])[keep])
            predicted.append(_stacked([p for _, p in pairs])[keep])
        cells = self.light.copy(deep=False)
        cells["expected"] = _joined(expected)
        cells["predicted"] = _joined(predicted)
        return cells.loc[:, list(CELL_COLUMNS)]


def _stacked(columns: list[ObjArray]) -> ObjArray:
    if not columns:
        return np.zeros(0, dtype=object)
    return np.stack(columns, axis=1).ravel()


def _joined(parts: list[ObjArray]) -> ObjArray:
    return np.concatenate(parts) if parts else np.zeros(0, dtype=object)


@dataclass
class WideColumns:
    """Wide ground truth and predictions, matched by document, before scoring."""

    items: pd.Index[Any]  # sorted document ids
    take: npt.NDArray[np.intp]  # truth row of each sorted item
    truth: dict[str, WideColumn]
    versions: dict[str, _Version]  # every version, sorted by name

    def has_array(self, specs: Mapping[str, FieldSpec]) -> bool:
        """Whether a column is an array field of ``specs`` (aligned row by row elsewhere)."""
        names = set(self.truth).union(*(v.columns for v in self.versions.values()))
        return any(specs[name].type == "array" for name in names if name in specs)

    @property
    def present(self) -> list[str]:
        """The versions that have at least one cell (the long frame's versions)."""
        return [v.name for v in self.versions.values() if any(h.any() for h in v.has)]

    def _sides(self, version: _Version, name: str) -> tuple[WideColumn | None, WideColumn | None]:
        return self.truth.get(name), version.columns.get(name)

    def _compare(self, version: _Version, name: str, spec: FieldSpec) -> Comparison:
        """The comparator of ``spec`` over one column pair (every item)."""
        n = len(self.items)
        found = version.position >= 0
        e_col, p_col = self._sides(version, name)
        kinds = {c.kind for c in (e_col, p_col) if c is not None}
        comparator = comparator_for(spec)
        if spec.type in _AMOUNT_TYPES and kinds == {"numeric"}:  # floats: nothing to parse
            e = e_col.floats[self.take] if e_col else np.full(n, np.nan)
            p = np.full(n, np.nan)
            if p_col is not None:
                p[found] = p_col.floats[version.position[found]]
            return comparator(pd.Series(e, copy=False), pd.Series(p, copy=False))
        if (
            spec.type in _STRING_TYPES
            and kinds == {"string"}
            and isinstance(comparator, CodedComparator)
        ):
            if e_col is None or p_col is None:  # one side only: every cell is empty there
                only = e_col or p_col
                assert only is not None
                codes, uniques = only.encoded
                row_e, row_p = (codes, None) if e_col is not None else (None, codes)
            else:  # codes in each frame's row order, then moved into item order
                row_e, row_p, uniques = string_codes(
                    e_col, p_col, aligned=version.position is self.take
                )
            e_codes = row_e[self.take] if row_e is not None else np.full(n, -1)
            p_codes = np.full(n, -1, dtype=np.intp)
            if row_p is not None:
                p_codes[found] = row_p[version.position[found]]
            return comparator.from_dictionary(e_codes, p_codes, uniques)
        values = self.version_values_of(version, name)
        return comparator(pd.Series(values[0], dtype=object), pd.Series(values[1], dtype=object))

    def version_values_of(self, version: _Version, name: str) -> tuple[ObjArray, ObjArray]:
        """Expected and predicted values of one field of ``version`` (sorted items)."""
        n = len(self.items)
        found = version.position >= 0
        e_col, p_col = self._sides(version, name)
        e_values = e_col.values()[self.take] if e_col else np.full(n, None, dtype=object)
        p_values = np.full(n, None, dtype=object)
        if p_col is not None:
            p_values = p_col.values()[np.where(found, version.position, 0)]
            p_values[~found] = None
        return e_values, p_values

    def score(
        self, specs: Mapping[str, FieldSpec], chosen: list[str]
    ) -> tuple[LazyCells, dict[str, FieldSpec]]:
        """Score the versions ``chosen``: their columns with the keys of the cells they
        stand for (the cells :func:`score_cells` gives for the long frame, laid out only when
        read) and the spec of each cell field."""
        all_fields = sorted(
            {
                f
                for v in self.versions.values()
                for f, h in zip(v.fields, v.has, strict=True)
                if h.any()
            }
        )
        used_items = np.zeros(len(self.items), dtype=np.bool_)
        for v in self.versions.values():
            for h in v.has:
                used_items |= h
        item_code = np.where(used_items, np.cumsum(used_items) - 1, -1)
        versions = self.present
        resolved_all = cell_specs(all_fields, specs)
        picked = [v for v in self.versions.values() if v.name in chosen and v.fields]
        jobs = [
            (version, name, has)
            for version in picked
            for name, has in zip(version.fields, version.has, strict=True)
            if has.any()
        ]

        def scored_column(job: tuple[_Version, str, BoolArray]) -> ScoredColumn:
            version, name, has = job
            spec = resolved_all[name]
            res = self._compare(version, name, spec)
            outcome = outcome_codes(res)
            # the one fuzzy comparator gives partial credit
            partial = np.asarray(res.score, dtype=np.float64) if spec.type == "text" else None
            if not has.all():
                outcome[~has] = NO_CELL
            return ScoredColumn(
                all_fields.index(name), name, has, outcome, partial, float(spec.weight)
            )

        # columns side by side on the cores once they are large enough to pay for threads
        parallel = len(self.items) * len(jobs) > PARALLEL_CELLS
        done = iter(thread_map(scored_column, jobs, parallel=parallel))
        scored = [
            ScoredVersion(
                versions.index(version.name),
                [next(done) for job in jobs if job[0] is version],
            )
            for version in picked
        ]
        columns_of = ScoredColumns(
            versions=pd.CategoricalDtype(pd.Index(versions)),
            items=unique_categories(self.items if used_items.all() else self.items[used_items]),
            fields=pd.CategoricalDtype(pd.Index(all_fields)),
            item_code=np.asarray(item_code, dtype=np.int64),
            scored=scored,
        )
        cell_fields = sorted({c.name for v in scored for c in v.columns})
        resolved = {f: resolved_all[f] for f in cell_fields}
        return LazyCells(columns_of, picked, self, columns_of.light()), resolved


def wide_columns(truth: Any, predictions: Mapping[str, Any]) -> WideColumns | None:
    """Wide ``truth`` and wide ``predictions`` (version -> frame) matched by document, or
    ``None`` when a frame is not plainly wide, repeats a document, or no version has a cell
    (the caller then takes the general path)."""
    expected_table = wide_table(truth)
    if expected_table is None or not predictions:
        return None
    items, expected = expected_table
    take = text_order(items)
    if take is None:  # a document repeats
        return None
    sorted_index = text_index(items.take(pa.array(take)))
    versions: dict[str, _Version] = {}
    for name in sorted(predictions):
        predicted_table = wide_table(predictions[name])
        if predicted_table is None:
            return None
        ids, predicted = predicted_table
        if ids.equals(items):  # the truth's documents in the truth's order
            position = take
        else:
            index = text_index(ids)
            if not index.is_unique:
                return None
            position = np.asarray(index.get_indexer(sorted_index), dtype=np.intp)
        if int((position >= 0).sum()) != len(ids):  # a prediction without ground truth
            return None
        found = position >= 0
        where = np.where(found, position, 0)
        fields = sorted(expected.keys() | predicted.keys())
        has = []
        for f in fields:
            mask = np.zeros(len(take), dtype=np.bool_)
            if f in expected:
                mask |= ~expected[f].missing[take]
            if f in predicted:
                mask |= found & ~predicted[f].missing[where]
            has.append(mask)
        versions[name] = _Version(name, fields, position, predicted, has)
    wide = WideColumns(sorted_index, take, expected, versions)
    return wide if wide.present else None


def no_row_counts() -> pd.DataFrame:
    """The row-count table of cells without array fields, as :func:`score_cells` gives it."""
    return _no_row_counts().copy()


@cache
def _no_row_counts() -> pd.DataFrame:  # built once: a few empty frames cost a millisecond
    empty = pd.DataFrame(columns=list(ROW_COUNT_COLUMNS))
    return empty.sort_values(["version", "item", "field"], ignore_index=True)


def compare_columns(
    truth: Any,
    predictions: Mapping[str, Any],
    specs: Mapping[str, FieldSpec],
    baseline: str,
    candidates: tuple[str, ...],
    *,
    candidate: str | None = None,
    **options: Any,
) -> ComparisonResult | None:
    """:func:`~fieldwise.compare.compare` of wide frames, scored column by column; ``None``
    when the frames are not plainly wide (or a column is an array field)."""
    wide = wide_columns(truth, predictions)
    if wide is None or wide.has_array(specs):
        return None
    picked = chosen_versions(set(wide.present), baseline, candidate, candidates)
    cells, resolved = wide.score(specs, [baseline, *picked])
    return compare_scored(
        cells,
        no_row_counts(),
        resolved,
        baseline=baseline,
        candidates=picked,
        light=cells.light,
        **options,
    )
