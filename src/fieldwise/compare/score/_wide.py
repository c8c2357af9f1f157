"""The plain Python values of a wide frame's columns, as the long comparison frame holds them.

A wide frame (a ``document`` column and one column per field) is scored column by column
(:mod:`~fieldwise.compare.score._columnwise`); when a cell's value is needed it is what the general
path (nested dicts, then :func:`~fieldwise.compare.build_frame`) would hold: plain Python
scalars, ``None`` where missing. A column holding anything else (nested or exotic values)
gives ``None``, and the frame takes the general path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

__all__ = [
    "Column",
    "WideColumn",
    "document_texts",
    "object_column",
    "string_codes",
    "text_index",
    "text_order",
    "wide_table",
]

_KEYS = ("document", "item_id")
_PLAIN_TYPES = (str, int, float, bool)

Column = tuple[npt.NDArray[np.object_], npt.NDArray[np.bool_]]


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


T = TypeVar("T")


class _cached(Generic[T]):
    """``functools.cached_property`` without its lock (Python 3.11 takes one per class, which
    would make the columns that threads score side by side wait on each other; computing a
    value twice in a race is harmless)."""

    def __init__(self, fn: Callable[[Any], T]) -> None:
        self.fn, self.name = fn, fn.__name__

    def __get__(self, obj: Any, owner: type | None = None) -> T:
        if obj is None:
            raise AttributeError(self.name)
        value = self.fn(obj)
        obj.__dict__[self.name] = value  # found first from now on (not a data descriptor)
        return value


@dataclass
class WideColumn:
    """One wide column: the raw Series (Arrow strings or numpy numbers, kept as they are; the
    plain values of an object column are converted up front, to know that they are plain)."""

    series: pd.Series[Any]
    missing: npt.NDArray[np.bool_]
    kind: str  # "string", "numeric" or "object"
    _values: npt.NDArray[np.object_] | None = field(default=None, repr=False)

    def values(self) -> npt.NDArray[np.object_]:
        """Plain Python scalars, ``None`` where missing (what the long frame holds)."""
        if self._values is None:  # (an object column's are converted up front)
            dtype = object if self.kind == "string" else None
            values = np.asarray(self.series.to_numpy(dtype=dtype), dtype=object)
            values[self.missing] = None
            self._values = values
        return self._values

    @_cached
    def arrow(self) -> pa.Array:
        """The strings as one Arrow array (read once, whichever versions compare with it)."""
        raw = self.series.array.__arrow_array__()
        if not isinstance(raw, pa.ChunkedArray):
            return raw
        return raw.chunk(0) if raw.num_chunks == 1 else raw.combine_chunks()

    @_cached
    def encoded(self) -> tuple[npt.NDArray[np.intp], pa.Array]:
        """The strings dictionary-encoded: a code per row (-1 where missing) and the
        distinct strings (computed once, whichever versions compare with it)."""
        encoded = self.arrow.dictionary_encode()
        return _indices(encoded.indices), encoded.dictionary

    @_cached
    def plain_text(self) -> tuple[pa.ChunkedArray, npt.NDArray[np.bool_]] | None:
        """The strings (as their chunks come, not copied into one array) and where they are
        empty (missing or ``""``) when every one is plain printable ASCII without whitespace
        (bytes 0x21..0x7e): what ``normalize_text`` leaves as it is, unless it folds case,
        punctuation or lines; else ``None``."""
        raw = self.series.array.__arrow_array__()
        text = pa.chunked_array([raw] if isinstance(raw, pa.Array) else raw.chunks, raw.type)
        text = text.cast(pa.large_string())
        empty = [np.zeros(0, dtype=np.bool_)]
        for chunk in text.chunks:
            _, offsets, data = chunk.buffers()
            bounds = np.frombuffer(offsets, dtype=np.int64)[
                chunk.offset : chunk.offset + len(chunk) + 1
            ]
            if data is not None and len(bounds):
                values = np.frombuffer(data, dtype=np.uint8)[bounds[0] : bounds[-1]]
                if len(values) and (int(values.min()) < 0x21 or int(values.max()) > 0x7E):
                    return None
            empty.append(bounds[1:] == bounds[:-1])
        return text, self.missing | np.concatenate(empty)

    @_cached
    def floats(self) -> npt.NDArray[np.float64]:
        return np.asarray(self.series.to_numpy(), dtype=np.float64)


def _indices(indices: pa.Array) -> npt.NDArray[np.intp]:
    """Dictionary indices as numpy integers, -1 where null."""
    return np.asarray(indices.fill_null(-1).to_numpy(zero_copy_only=False), dtype=np.intp)


def string_codes(
    truth: WideColumn, predicted: WideColumn, aligned: bool
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], pa.Array]:
    """Codes of both string columns (row order each) into one Arrow array of their distinct
    strings. ``aligned``: row r of one is the same document as row r of the other; then only
    the predictions that differ from the truth are hashed (usually a few percent)."""
    e_codes, dictionary = truth.encoded
    if aligned and truth.arrow.type == predicted.arrow.type:
        differ = ~np.asarray(
            pc.equal(truth.arrow, predicted.arrow).fill_null(False).to_numpy(zero_copy_only=False),
            dtype=np.bool_,
        )
        # the truth's distinct strings first keep their codes 0..k-1
        changed = predicted.arrow.filter(pa.array(differ)).cast(pa.large_string())
        joined = pa.concat_arrays([dictionary.cast(pa.large_string()), changed])
        encoded = joined.dictionary_encode()
        p_codes = e_codes.copy()
        p_codes[differ] = _indices(encoded.indices)[len(dictionary) :]
        return e_codes, p_codes, encoded.dictionary
    both = [truth.arrow.cast(pa.large_string()), predicted.arrow.cast(pa.large_string())]
    encoded = pa.concat_arrays(both).dictionary_encode()
    codes = _indices(encoded.indices)
    n = len(truth.arrow)
    return codes[:n], codes[n:], encoded.dictionary


def _col(series: pd.Series[Any]) -> WideColumn | None:
    dtype = series.dtype
    if isinstance(dtype, pd.StringDtype):
        return WideColumn(series, np.asarray(series.isna(), dtype=np.bool_), "string")
    if not isinstance(dtype, np.dtype):
        return None
    if dtype.kind in "iu":
        return WideColumn(series, np.zeros(len(series), dtype=np.bool_), "numeric")
    if dtype.kind == "f":
        return WideColumn(series, np.isnan(series.to_numpy()), "numeric")
    if dtype.kind == "b":  # plain bools, none missing
        plain = series.to_numpy().astype(object)
        return WideColumn(series, np.zeros(len(series), dtype=np.bool_), "object", plain)
    if dtype.kind == "O":
        converted = object_column(series.to_numpy())
        if converted is None:
            return None
        return WideColumn(series, converted[1], "object", converted[0])
    return None


def document_texts(keys: pd.Series[Any]) -> pa.Array:
    """The document ids as ``str()`` writes them (the general path keys documents by that
    text), in row order; integers written by Arrow, without a Python string per id."""
    if isinstance(keys.dtype, np.dtype) and keys.dtype.kind in "iu":
        return pc.cast(pa.array(keys.to_numpy()), pa.large_string())
    return pa.array([str(k) for k in keys.tolist()], type=pa.large_string())


def text_order(texts: pa.Array) -> npt.NDArray[np.intp] | None:
    """Row numbers in the order of ``texts`` (Arrow sorts UTF-8 bytes: code point order, what
    ``sorted()`` gives for str), or ``None`` when a text repeats."""
    order = pc.sort_indices(texts)
    ranked = texts.take(order)
    if len(ranked) > 1 and pc.any(pc.equal(ranked[1:], ranked[:-1])).as_py():
        return None
    return np.asarray(order, dtype=np.intp)


def wide_table(frame: Any) -> tuple[pa.Array, dict[str, WideColumn]] | None:
    """The document ids as text (row order; not yet checked for repeats) and the columns of
    one wide frame, or None."""
    if not isinstance(frame, pd.DataFrame) or {"field", "value"} <= set(frame.columns):
        return None
    key = next((k for k in _KEYS if k in frame.columns), None)
    if key is None or not frame.columns.is_unique:
        return None
    ids = document_texts(frame[key])
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


def text_index(texts: pa.Array) -> pd.Index[Any]:
    """An Index of Arrow strings, of the dtype ``pd.Index`` gives a list of str (no Python
    string per value when that dtype is Arrow's)."""
    dtype = pd.Index(["x"]).dtype
    if isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow":
        index: pd.Index[Any] = pd.Index(pd.array(texts, dtype=dtype))
    else:
        index = pd.Index(texts.to_pylist())
    return index
