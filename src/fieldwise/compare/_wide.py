"""The plain Python values of a wide frame's columns, as the long comparison frame holds them.

A wide frame (a ``document`` column and one column per field) is scored column by column
(:mod:`~fieldwise.compare._columnwise`); when a cell's value is needed it is what the general
path (nested dicts, then :func:`~fieldwise.compare.build_frame`) would hold: plain Python
scalars, ``None`` where missing. A column holding anything else (nested or exotic values)
gives ``None``, and the frame takes the general path.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

__all__ = ["Column", "frame_key", "object_column", "plain_column"]

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
