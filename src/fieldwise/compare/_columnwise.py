"""Wide frames scored column by column, without a long frame of Python objects.

``fieldwise.compare(truth_df, {"v1": df, ...})`` with wide frames (a ``document`` column and
one column per field) is scored here one (version, field) column pair at a time: Arrow string
columns are dictionary-encoded and only their unique values normalized (the comparator's own
rule, :class:`~fieldwise.compare._base.CodedComparator`), numeric columns under a number or
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
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from fieldwise.compare._align import ROW_COUNT_COLUMNS
from fieldwise.compare._amounts import tolerance_comparison
from fieldwise.compare._base import BoolArray, CodedComparator, Comparison
from fieldwise.compare._comparators import comparator_for
from fieldwise.compare._outcomes import CELL_COLUMNS, OUTCOMES, cell_specs
from fieldwise.compare._result import ComparisonResult, chosen_versions, compare_scored
from fieldwise.compare._spec import FieldSpec
from fieldwise.compare._wide import WideColumn, wide_table

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
    """The scored cells without their values, and how to lay the values out when asked."""

    light: pd.DataFrame
    parts: list[tuple[_Version, BoolArray]]
    wide: WideColumns

    def __call__(self) -> pd.DataFrame:
        expected, predicted = [], []
        for version, keep in self.parts:
            e, p = self.wide.version_values(version)
            expected.append(e[keep])
            predicted.append(p[keep])
        cells = self.light.copy()
        cells["expected"] = _joined(expected)
        cells["predicted"] = _joined(predicted)
        return cells.loc[:, list(CELL_COLUMNS)]


def _joined(parts: list[ObjArray]) -> ObjArray:
    return np.concatenate(parts) if parts else np.zeros(0, dtype=object)


@dataclass
class WideColumns:
    """Wide ground truth and predictions, matched by document, before scoring."""

    items: list[str]  # sorted document ids
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

    def version_values(self, version: _Version) -> tuple[ObjArray, ObjArray]:
        """Expected and predicted values of every (item, field) of ``version``, item-major."""
        if not version.fields:
            return np.zeros(0, dtype=object), np.zeros(0, dtype=object)
        pairs = [self.version_values_of(version, name) for name in version.fields]
        return (
            np.stack([e for e, _ in pairs], axis=1).ravel(),
            np.stack([p for _, p in pairs], axis=1).ravel(),
        )

    def _compare(self, version: _Version, name: str, spec: FieldSpec) -> Comparison:
        """The comparator of ``spec`` over one column pair (every item)."""
        n = len(self.items)
        found = version.position >= 0
        e_col, p_col = self._sides(version, name)
        kinds = {c.kind for c in (e_col, p_col) if c is not None}
        comparator = comparator_for(spec)
        if spec.type in _AMOUNT_TYPES and kinds == {"numeric"}:
            e = e_col.floats[self.take] if e_col else np.full(n, np.nan)
            p = np.full(n, np.nan)
            if p_col is not None:
                p[found] = p_col.floats[version.position[found]]
            if not (np.isinf(e).any() or np.isinf(p).any()):  # inf goes through the parser
                return tolerance_comparison(np.concatenate([e, p]), n, spec.atol, spec.rtol)
        if (
            spec.type in _STRING_TYPES
            and kinds == {"string"}
            and isinstance(comparator, CodedComparator)
        ):
            sides = []
            if e_col is not None:
                sides.append(e_col.arrow.take(pa.array(self.take)))
            else:
                sides.append(pa.nulls(n, pa.large_string()))
            if p_col is not None:
                index = pa.array(np.where(found, version.position, 0), mask=~found)
                sides.append(p_col.arrow.take(index))
            else:
                sides.append(pa.nulls(n, pa.large_string()))
            encoded = pa.concat_arrays(sides).dictionary_encode()
            codes = np.asarray(
                encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False), dtype=np.intp
            )
            uniques = encoded.dictionary.to_pylist()
            return comparator.from_codes(codes[:n], codes[n:], uniques)
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
        """Score the versions ``chosen``: the cells as :func:`score_cells` gives them for
        the long frame (without values until read) and the spec of each cell field."""
        n = len(self.items)
        all_fields = sorted(
            {
                f
                for v in self.versions.values()
                for f, h in zip(v.fields, v.has, strict=True)
                if h.any()
            }
        )
        used_items = np.zeros(n, dtype=np.bool_)
        for v in self.versions.values():
            for h in v.has:
                used_items |= h
        item_code = np.cumsum(used_items) - 1
        versions = self.present
        resolved_all = cell_specs(all_fields, specs)
        chosen_set = set(chosen)
        columns: dict[str, list[npt.NDArray[Any]]] = {
            k: [] for k in ("version", "item", "field", "score", "outcome", "weight")
        }
        parts = []
        cell_fields: set[str] = set()
        for version in self.versions.values():
            if version.name not in chosen_set or not version.fields:
                continue
            width = len(version.fields)
            outcome_parts, score_parts = [], []
            for name, has in zip(version.fields, version.has, strict=True):
                if not has.any():
                    outcome_parts.append(np.full(n, 4, dtype=np.int8))
                    score_parts.append(np.zeros(n))
                    continue
                cell_fields.add(name)
                res = self._compare(version, name, resolved_all[name])
                outcome_parts.append(
                    np.select(
                        [res.left_empty & res.right_empty, res.left_empty, res.right_empty,
                         res.match],
                        [4, 3, 2, 0],
                        default=1,
                    ).astype(np.int8)
                )  # fmt: skip
                score_parts.append(res.score)
            keep = np.stack(version.has, axis=1).ravel()
            codes = np.array([all_fields.index(f) if f in all_fields else -1
                              for f in version.fields])  # fmt: skip
            weights = np.array([resolved_all[f].weight if f in resolved_all else 1.0
                                for f in version.fields])  # fmt: skip
            every = bool(keep.all())  # every cell present (the usual case): no selection

            def kept(values: npt.NDArray[Any], every: bool = every, keep: Any = keep) -> Any:
                return values if every else values[keep]

            field_code = kept(np.tile(codes, n))
            columns["item"].append(kept(np.repeat(item_code, width)))
            columns["field"].append(field_code)
            columns["version"].append(np.full(len(field_code), versions.index(version.name)))
            columns["outcome"].append(kept(np.stack(outcome_parts, axis=1).ravel()))
            columns["score"].append(kept(np.stack(score_parts, axis=1).ravel()))
            columns["weight"].append(kept(np.tile(weights, n)))
            parts.append((version, keep))
        joined = {k: _concat(v) for k, v in columns.items()}
        size = len(joined["outcome"])
        light = pd.DataFrame(
            {
                "version": _categorical(joined["version"], pd.Index(versions)),
                "item": _categorical(joined["item"], pd.Index(self.items)[used_items]),
                "field": _categorical(joined["field"], pd.Index(all_fields)),
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
        resolved = {f: resolved_all[f] for f in sorted(cell_fields)}
        return LazyCells(light, parts, self), resolved


def _concat(parts: list[npt.NDArray[Any]]) -> npt.NDArray[Any]:
    if len(parts) == 1:  # one version: no copy of ten million cells
        return parts[0]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _categorical(codes: npt.NDArray[Any], categories: pd.Index[Any]) -> pd.Categorical:
    return pd.Categorical.from_codes(
        np.asarray(codes, dtype=np.int64), categories=categories, validate=False
    )


def wide_columns(truth: Any, predictions: Mapping[str, Any]) -> WideColumns | None:
    """Wide ``truth`` and wide ``predictions`` (version -> frame) matched by document, or
    ``None`` when a frame is not plainly wide or no version has a cell (the caller then takes
    the general path)."""
    expected_table = wide_table(truth)
    if expected_table is None or not predictions:
        return None
    items, expected = expected_table
    # Arrow sorts by UTF-8 bytes, which is code point order: what sorted() gives for str
    take = np.asarray(pc.sort_indices(pa.array(items, type=pa.large_string())), dtype=np.intp)
    sorted_items = [items[i] for i in take.tolist()]
    sorted_index = pd.Index(sorted_items)
    versions: dict[str, _Version] = {}
    for name in sorted(predictions):
        predicted_table = wide_table(predictions[name])
        if predicted_table is None:
            return None
        ids, predicted = predicted_table
        if ids == items:  # the truth's documents in the truth's order
            position = take
        else:
            position = np.asarray(pd.Index(ids).get_indexer(sorted_index), dtype=np.intp)
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
    wide = WideColumns(sorted_items, take, expected, versions)
    return wide if wide.present else None


def no_row_counts() -> pd.DataFrame:
    """The row-count table of cells without array fields, as :func:`score_cells` gives it."""
    empty = pd.DataFrame(columns=list(ROW_COUNT_COLUMNS))
    return empty.sort_values(["version", "item", "field"], ignore_index=True)


def compare_columns(
    truth: Any,
    predictions: Mapping[str, Any],
    specs: Mapping[str, FieldSpec],
    baseline: str,
    candidates: tuple[str, ...],
    **options: Any,
) -> ComparisonResult | None:
    """:func:`~fieldwise.compare.compare` of wide frames, scored column by column; ``None``
    when the frames are not plainly wide (or a column is an array field)."""
    wide = wide_columns(truth, predictions)
    if wide is None or wide.has_array(specs):
        return None
    picked = chosen_versions(set(wide.present), baseline, None, candidates)
    cells, resolved = wide.score(specs, [baseline, *picked])
    return compare_scored(
        cells.light,
        no_row_counts(),
        resolved,
        baseline=baseline,
        candidates=picked,
        values=cells,
        **options,
    )
