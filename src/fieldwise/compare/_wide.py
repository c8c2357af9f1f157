"""The comparison frame straight from wide DataFrames, column by column.

``fieldwise.compare(truth_df, {"v1": df, ...})`` with wide frames (a ``document`` column and one
column per field) would otherwise go through nested dicts, one Python call per cell
(:mod:`~fieldwise.compare._inputs`, then :func:`~fieldwise.compare.build_frame`). Here each
column is converted once with numpy, and the long frame is laid out in the same order with the
same values (plain Python scalars, missing cells as ``None``, rows only where either side has a
value, confidence NaN), its keys already categorical. Anything unusual (long frames, dotted or
repeated field names, nested or exotic values, keys that collide as text) returns ``None`` and
takes the general path, which also raises its errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

__all__ = ["wide_frame"]

_KEYS = ("document", "item_id")
_PLAIN_TYPES = (str, int, float, bool)

Column = tuple[npt.NDArray[np.object_], npt.NDArray[np.bool_]]


def _key(frame: pd.DataFrame) -> str | None:
    return next((k for k in _KEYS if k in frame.columns), None)


def _object_column(values: npt.NDArray[Any]) -> Column | None:
    """Plain Python values of an object column, or None when one is not a plain scalar."""
    out = np.empty(len(values), dtype=object)
    missing = np.zeros(len(values), dtype=np.bool_)
    for i, value in enumerate(values.tolist()):
        kind = type(value)
        if kind is float and value != value:
            missing[i] = True
        elif kind in _PLAIN_TYPES:
            out[i] = value
        elif value is None or value is pd.NA or value is pd.NaT:
            missing[i] = True
        elif isinstance(value, np.generic) and value.dtype.kind in "biuf":
            plain = value.item()
            if isinstance(plain, float) and plain != plain:
                missing[i] = True
            else:
                out[i] = plain
        else:
            return None
    return out, missing


def _column(series: pd.Series[Any]) -> Column | None:
    """(values as plain Python scalars with None where missing, missing mask), or None."""
    dtype = series.dtype
    if isinstance(dtype, pd.StringDtype):
        missing = np.asarray(series.isna(), dtype=np.bool_)
        values = np.asarray(series.to_numpy(dtype=object), dtype=object)
        values[missing] = None
        return values, missing
    if not isinstance(dtype, np.dtype):
        return None
    raw = series.to_numpy()
    if dtype.kind in "biu":
        return raw.astype(object), np.zeros(len(raw), dtype=np.bool_)
    if dtype.kind == "f":
        missing = np.isnan(raw)
        values = raw.astype(object)
        values[missing] = None
        return values, missing
    if dtype.kind == "O":
        return _object_column(raw)
    return None


def _table(frame: Any) -> tuple[list[str], dict[str, Column]] | None:
    """Document ids as text and the converted columns of one wide frame, or None."""
    if not isinstance(frame, pd.DataFrame) or {"field", "value"} <= set(frame.columns):
        return None
    key = _key(frame)
    if key is None or not frame.columns.is_unique:
        return None
    ids = [str(k) for k in frame[key].tolist()]
    if len(set(ids)) != len(ids):
        return None
    fields = [c for c in frame.columns if c != key]
    names = [str(c) for c in fields]
    if len(set(names)) != len(names) or any("." in n for n in names):
        return None
    columns: dict[str, Column] = {}
    for column, name in zip(fields, names, strict=True):
        converted = _column(frame[column])
        if converted is None:
            return None
        columns[name] = converted
    return ids, columns


def wide_frame(truth: Any, predictions: Mapping[str, Any]) -> pd.DataFrame | None:
    """The comparison frame of wide ``truth`` and wide ``predictions`` (version -> frame), as
    ``build_frame(as_truth(truth), {v: as_outputs(p)})`` gives it but with categorical keys;
    ``None`` when a frame is not plainly wide (the caller then takes the general path)."""
    expected_table = _table(truth)
    if expected_table is None or not predictions:
        return None
    items, expected = expected_table
    order = sorted(range(len(items)), key=items.__getitem__)
    sorted_items = [items[i] for i in order]
    take = np.asarray(order, dtype=np.intp)
    parts: list[dict[str, Any]] = []
    for version in sorted(predictions):
        predicted_table = _table(predictions[version])
        if predicted_table is None:
            return None
        ids, predicted = predicted_table
        position = pd.Index(ids).get_indexer(pd.Index(sorted_items))
        if int((position >= 0).sum()) != len(ids):  # a prediction without ground truth
            return None
        parts.append(_version_part(version, take, position, expected, predicted))
    items_index = pd.Index(sorted_items)
    fields = sorted({f for part in parts for f in part["fields"]})
    versions = sorted(predictions)
    frame = pd.DataFrame(
        {
            "item": _categorical([p["item"] for p in parts], items_index),
            "field": _categorical(
                [np.asarray([fields.index(f) for f in p["fields"]])[p["field"]] for p in parts],
                pd.Index(fields),
            ),
            "version": _categorical(
                [np.full(len(p["item"]), versions.index(p["version"])) for p in parts],
                pd.Index(versions),
            ),
            "expected": np.concatenate([p["expected"] for p in parts]),
            "predicted": np.concatenate([p["predicted"] for p in parts]),
        }
    )
    frame["confidence"] = np.nan
    return frame if len(frame) else None


def _categorical(codes: list[npt.NDArray[Any]], categories: pd.Index[Any]) -> pd.Categorical:
    """Codes into ``categories``, keeping only the categories used (as a categorical built
    from the values would), without hashing anything."""
    joined = np.concatenate(codes).astype(np.int64) if codes else np.zeros(0, dtype=np.int64)
    used = np.bincount(joined, minlength=len(categories)) > 0
    if not used.all():
        joined = (np.cumsum(used) - 1)[joined]
        categories = categories[used]
    return pd.Categorical.from_codes(joined, categories=categories, validate=False)


def _version_part(
    version: str,
    take: npt.NDArray[np.intp],
    position: npt.NDArray[np.intp],
    expected: dict[str, Column],
    predicted: dict[str, Column],
) -> dict[str, Any]:
    """One version's rows, item-major then field, where either side has a value."""
    n = len(take)
    fields = sorted(expected.keys() | predicted.keys())
    found = position >= 0
    where = np.where(found, position, 0)
    e_parts, p_parts, has_parts = [], [], []
    for field in fields:  # field by field, then side by side into item-major order
        has = np.zeros(n, dtype=np.bool_)
        e_values = np.full(n, None, dtype=object)
        p_values = np.full(n, None, dtype=object)
        if field in expected:
            values, missing = expected[field]
            e_values = values[take]
            has |= ~missing[take]
        if field in predicted:
            values, missing = predicted[field]
            p_values = values[where]  # a copy
            p_values[~found] = None
            has |= found & ~missing[where]
        e_parts.append(e_values)
        p_parts.append(p_values)
        has_parts.append(has)
    if not fields:
        empty = np.zeros(0, dtype=np.int64)
        nothing = np.zeros(0, dtype=object)
        return {"version": version, "fields": fields, "item": empty, "field": empty,
                "expected": nothing, "predicted": nothing}  # fmt: skip
    # item-major (item i, field j at i * F + j): stacking the columns side by side
    keep = np.stack(has_parts, axis=1).ravel()
    expected_cells = np.stack(e_parts, axis=1).ravel()
    predicted_cells = np.stack(p_parts, axis=1).ravel()
    item = np.repeat(np.arange(n), len(fields))
    field_code = np.tile(np.arange(len(fields)), n)
    if not keep.all():
        expected_cells, predicted_cells = expected_cells[keep], predicted_cells[keep]
        item, field_code = item[keep], field_code[keep]
    return {
        "version": version,
        "fields": fields,
        "item": item,
        "field": field_code,
        "expected": expected_cells,
        "predicted": predicted_cells,
    }
