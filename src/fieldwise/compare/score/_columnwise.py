"""Wide frames scored column by column, without a long frame of Python objects.

``fieldwise.compare(truth_df, {"v1": df, ...})`` with wide frames (a ``document`` column and
one column per field) is scored here one (version, field) column pair at a time: Arrow string
columns are dictionary-encoded and only their unique values normalized (the comparator's own
rule, :class:`~fieldwise.compare.score._base.CodedComparator`), numeric columns under a number or
currency spec are compared as float arrays, and any other column pair goes through the
comparator with the same Python values the long frame would hold. The cells come out as the
long path lays them out (version, then item, then field; only where either side has a value),
but only when first read (:class:`LazyCells`): every figure is counted from the columns' codes
(:meth:`ScoredColumns.coded`).

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
import pyarrow.compute as pc

from fieldwise.compare._comparison import ComparisonResult
from fieldwise.compare._result import chosen_versions, compare_scored
from fieldwise.compare._spec import FieldSpec
from fieldwise.compare.score._align import ROW_COUNT_COLUMNS
from fieldwise.compare.score._amounts import within
from fieldwise.compare.score._base import BoolArray, CodedComparator, Comparison
from fieldwise.compare.score._column_tables import (
    NO_CELL,
    LazyCells,
    ScoredColumn,
    ScoredColumns,
    ScoredVersion,
)
from fieldwise.compare.score._comparators import comparator_for
from fieldwise.compare.score._outcomes import PARALLEL_CELLS, cell_specs, outcome_codes
from fieldwise.compare.score._threads import thread_map
from fieldwise.compare.score._wide import (
    WideColumn,
    string_codes,
    text_index,
    text_order,
    wide_table,
)

__all__ = ["WideColumns", "compare_columns", "no_row_counts", "wide_columns"]

_STRING_TYPES = ("string", "text", "enum", "date", "boolean")
_AMOUNT_TYPES = ("number", "currency")
ObjArray = npt.NDArray[np.object_]
IntArray = npt.NDArray[np.intp]
_NO_SCORE = np.zeros(0)  # what outcome_codes does not read


@dataclass
class _Version:
    name: str
    fields: list[str]
    position: npt.NDArray[np.intp]  # per sorted item: row in this version's frame, -1 if none
    columns: dict[str, WideColumn]
    has: list[BoolArray]  # per field of ``fields``: the item has a cell (either side a value)


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

    def _in_items(
        self,
        version: _Version,
        rows: tuple[npt.NDArray[Any] | None, npt.NDArray[Any] | None],
        fill: Any,
    ) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """Per-row arrays of the truth and of ``version`` (``None``: no such column) moved
        into item order, ``fill`` where a side has no row."""
        n, found = len(self.items), version.position >= 0
        e_rows, p_rows = rows
        dtype = next(r.dtype for r in rows if r is not None)
        e = e_rows[self.take] if e_rows is not None else np.full(n, fill, dtype=dtype)
        p = np.full(n, fill, dtype=dtype)
        if p_rows is not None:
            p[found] = p_rows[version.position[found]]
        return e, p

    def _row_outcome(
        self, version: _Version, name: str, spec: FieldSpec
    ) -> npt.NDArray[np.int8] | None:
        """The outcome codes of one column pair in row order, when ``version`` holds the
        truth's documents in the truth's rows (the usual case of predictions beside their
        truth) and the pair needs neither parsing nor a dictionary: numbers (the number
        comparator's tolerance, on the rows as they are), or plain ASCII strings (no
        whitespace) under an exact string spec that folds at most case and whitespace
        (``normalize_text`` leaves them as they are, case aside) compared by one Arrow kernel.
        That keeps the dictionaries' memory (~10% of the process at 50k documents) and a
        fifth of the CPU out. ``None`` for anything else."""
        e_col, p_col = self.truth.get(name), version.columns.get(name)
        if version.position is not self.take or e_col is None or p_col is None:
            return None
        if spec.type in _AMOUNT_TYPES and e_col.kind == p_col.kind == "numeric":
            e, p = e_col.floats, p_col.floats
            match = within(e, p, spec.atol, spec.rtol)
            return outcome_codes(Comparison(np.isnan(e), np.isnan(p), match, _NO_SCORE))
        if (
            spec.type != "string"
            or spec.ignore_punctuation
            or spec.fold_lines
            or e_col.kind != "string"
            or p_col.kind != "string"
        ):
            return None
        e_plain, p_plain = e_col.plain_text, p_col.plain_text
        if e_plain is None or p_plain is None:
            return None
        (e_text, le), (p_text, re_) = e_plain, p_plain
        if not spec.case_sensitive:  # casefold() of ASCII is its lower case
            e_text, p_text = pc.ascii_lower(e_text), pc.ascii_lower(p_text)
        equal = pc.equal(e_text, p_text).fill_null(False)
        match = np.asarray(equal.to_numpy(zero_copy_only=False), dtype=np.bool_)
        return outcome_codes(Comparison(le, re_, match, _NO_SCORE))

    def _compare(self, version: _Version, name: str, spec: FieldSpec) -> Comparison:
        """The comparator of ``spec`` over one column pair (every item)."""
        e_col, p_col = self.truth.get(name), version.columns.get(name)
        kinds = {c.kind for c in (e_col, p_col) if c is not None}
        comparator = comparator_for(spec)
        if spec.type in _AMOUNT_TYPES and kinds == {"numeric"}:  # floats: nothing to parse
            floats = (e_col.floats if e_col else None, p_col.floats if p_col else None)
            e, p = self._in_items(version, floats, np.nan)
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
                rows: tuple[IntArray | None, IntArray | None] = (
                    (codes, None) if e_col is not None else (None, codes)
                )
            else:  # codes in each frame's row order
                e_rows, p_rows, uniques = string_codes(
                    e_col, p_col, aligned=version.position is self.take
                )
                rows = (e_rows, p_rows)
            e_codes, p_codes = self._in_items(version, rows, -1)
            return comparator.from_dictionary(e_codes, p_codes, uniques)
        values = self.version_values_of(version, name)
        return comparator(pd.Series(values[0], dtype=object), pd.Series(values[1], dtype=object))

    def version_values_of(self, version: _Version, name: str) -> tuple[ObjArray, ObjArray]:
        """Expected and predicted values of one field of ``version`` (sorted items)."""
        e_col, p_col = self.truth.get(name), version.columns.get(name)  # one at least
        rows = (e_col.values() if e_col else None, p_col.values() if p_col else None)
        return self._in_items(version, rows, None)

    def score(
        self, specs: Mapping[str, FieldSpec], chosen: list[str]
    ) -> tuple[ScoredColumns, LazyCells, dict[str, FieldSpec]]:
        """Score the versions ``chosen``: their columns with the keys of the cells they
        stand for, what lays those cells out (the cells :func:`score_cells` gives for the
        long frame) when read, and the spec of each cell field."""
        picked = [v for v in self.versions.values() if v.name in chosen and v.fields]
        # the keys of the cells of the versions compared, numbered as sorted_codes numbers
        # the laid-out cells' keys (only those some cell uses)
        all_fields = sorted(
            {f for v in picked for f, h in zip(v.fields, v.has, strict=True) if h.any()}
        )
        used_items = np.zeros(len(self.items), dtype=np.bool_)
        for v in picked:
            for h in v.has:
                used_items |= h
        item_code = np.where(used_items, np.cumsum(used_items) - 1, -1)
        versions = [v.name for v in picked]  # (each has a cell: see compare_columns)
        resolved_all = cell_specs(all_fields, specs)
        jobs = [
            (version, name, has)
            for version in picked
            for name, has in zip(version.fields, version.has, strict=True)
            if has.any()
        ]

        def scored_column(job: tuple[_Version, str, BoolArray]) -> ScoredColumn:
            version, name, has = job
            spec = resolved_all[name]
            partial = None
            in_rows = self._row_outcome(version, name, spec)
            if in_rows is not None:  # row r of both frames is the same document
                outcome = in_rows[self.take]
            else:
                res = self._compare(version, name, spec)
                outcome = outcome_codes(res)
                if spec.type == "text":  # the one fuzzy comparator: partial credit
                    partial = np.asarray(res.score, dtype=np.float64)
            if not has.all():
                outcome[~has] = NO_CELL
            return ScoredColumn(
                all_fields.index(name), name, has, outcome, partial, float(spec.weight)
            )

        # columns side by side on the cores once they are large enough to pay for threads
        parallel = len(self.items) * len(jobs) > PARALLEL_CELLS
        done = iter(thread_map(scored_column, jobs, parallel=parallel))
        scored = [
            ScoredVersion(k, [next(done) for job in jobs if job[0] is version])
            for k, version in enumerate(picked)
        ]
        columns_of = ScoredColumns(
            versions=pd.Index(versions),
            items=self.items if used_items.all() else self.items[used_items],
            fields=pd.Index(all_fields),
            item_code=np.asarray(item_code, dtype=np.int64),
            scored=scored,
        )

        def values_of(k: int, name: str) -> tuple[ObjArray, ObjArray]:
            return self.version_values_of(picked[k], name)

        return columns_of, LazyCells(columns_of, values_of), resolved_all


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
    columns, cells, resolved = wide.score(specs, [baseline, *picked])
    return compare_scored(
        cells,
        no_row_counts(),
        resolved,
        baseline=baseline,
        candidates=picked,
        coded=columns.coded(),
        **options,
    )
