"""The plain Python values of a wide frame's columns, as the long comparison frame holds them.

A wide frame (a ``document`` column and one column per field) is scored column by column
(:mod:`~fieldwise.compare._columnwise`); when a cell's value is needed it is what the general
path (nested dicts, then :func:`~fieldwise.compare.build_frame`) would hold: plain Python
scalars, ``None`` where missing. A column holding anything else (nested or exotic values)
gives ``None``, and the frame takes the general path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa

__all__ = ["Column", "WideColumn", "frame_key", "object_column", "plain_column", "wide_table"]

_KEYS = ("document", "item_id")
_PLAIN_TYPES = (str, int, float, bool)

Column = tuple[npt.NDArray[np.object_], npt.NDArray[np.bool_]]


def frame_key(frame: pd.DataFrame) -> str | None:
    return next((k for k in _KEYS if k in frame.columns), None)


def object_column(values: npt.NDArray[Any]) -> Column | None:
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


def plain_column(series: pd.Series[Any]) -> Column | None:
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
        return object_column(raw)
    return None


@dataclass
class WideColumn:
    """One wide column: the raw Series (Arrow strings or numpy numbers, kept as they are) or,
    for an object column, its plain values converted up front."""

    series: pd.Series[Any] | None
    converted: Column | None
    missing: npt.NDArray[np.bool_]
    kind: str  # "string", "numeric" or "object"
    _values: npt.NDArray[np.object_] | None = field(default=None, repr=False)

    def values(self) -> npt.NDArray[np.object_]:
        """Plain Python scalars, ``None`` where missing (what the long frame holds)."""
        if self._values is None:
            if self.converted is not None:
                self._values = self.converted[0]
            else:
                assert self.series is not None
                got = plain_column(self.series)
                assert got is not None
                self._values = got[0]
        return self._values

    @cached_property
    def arrow(self) -> pa.Array:
        """The strings as one Arrow array (read once, whichever versions compare with it)."""
        assert self.series is not None
        raw = self.series.array.__arrow_array__()
        chunked = raw if isinstance(raw, pa.ChunkedArray) else pa.chunked_array([raw])
        return chunked.combine_chunks().cast(pa.large_string())

    @cached_property
    def floats(self) -> npt.NDArray[np.float64]:
        assert self.series is not None
        return np.asarray(self.series.to_numpy(), dtype=np.float64)


def _col(series: pd.Series[Any]) -> WideColumn | None:
    dtype = series.dtype
    if isinstance(dtype, pd.StringDtype):
        return WideColumn(series, None, np.asarray(series.isna(), dtype=np.bool_), "string")
    if not isinstance(dtype, np.dtype):
        return None
    if dtype.kind in "iu":
        return WideColumn(series, None, np.zeros(len(series), dtype=np.bool_), "numeric")
    if dtype.kind == "f":
        return WideColumn(series, None, np.isnan(series.to_numpy()), "numeric")
    if dtype.kind in "bO":
        converted = plain_column(series) if dtype.kind == "b" else object_column(series.to_numpy())
        if converted is None:
            return None
        return WideColumn(None, converted, converted[1], "object")
    return None


def wide_table(frame: Any) -> tuple[list[str], dict[str, WideColumn]] | None:
    """Document ids as text and the columns of one wide frame, or None."""
    if not isinstance(frame, pd.DataFrame) or {"field", "value"} <= set(frame.columns):
        return None
    key = frame_key(frame)
    if key is None or not frame.columns.is_unique:
        return None
    keys = frame[key]
    if isinstance(keys.dtype, np.dtype) and keys.dtype.kind in "iu":
        ids = keys.to_numpy().astype(str).tolist()  # numpy writes integers as str() does
    else:
        ids = [str(k) for k in keys.tolist()]
    if len(set(ids)) != len(ids):
        return None
    fields = [c for c in frame.columns if c != key]
    names = [str(c) for c in fields]
    if len(set(names)) != len(names) or any("." in n for n in names):
        return None
    columns: dict[str, WideColumn] = {}
    for column, name in zip(fields, names, strict=True):
        converted = _col(frame[column])
        if converted is None:
            return None
        columns[name] = converted
    return ids, columns
