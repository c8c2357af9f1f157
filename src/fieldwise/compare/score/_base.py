"""Shared machinery of the comparators: the result type and the factorize-once helpers."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa

from fieldwise._errors import CompareError

__all__ = [
    "ArrowKeys",
    "BoolArray",
    "CodedComparator",
    "Comparator",
    "Comparison",
    "FloatArray",
    "IntArray",
    "comparison_of",
    "hashable",
    "normalized_keys",
    "string_dictionary",
    "take_codes",
]

BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


@dataclass(frozen=True, eq=False)
class Comparison:
    """Per-cell result: emptiness of each side, the match, and a score in [0, 1].

    ``score`` is 1.0/0.0 for exact comparators and the similarity for fuzzy text (kept as partial
    credit); it is 0.0 when one side is empty and 1.0 when both are.
    """

    left_empty: BoolArray
    right_empty: BoolArray
    match: BoolArray
    score: FloatArray


Comparator = Callable[["pd.Series[Any]", "pd.Series[Any]"], Comparison]


FromCodes = Callable[["IntArray", "IntArray", list[Any]], Comparison]


#: Integer keys of an Arrow array of distinct strings (equal normalized values share a key,
#: empty is -1), or ``None`` when some string needs the scalar rule.
ArrowKeys = Callable[["pa.Array"], "IntArray | None"]


class CodedComparator:
    """A comparator whose rule reads only each unique raw value (or unique pair): it can also
    compare cells already given as codes into one list of unique values (``from_codes``),
    which is how wide columns are compared without a Python object per cell; ``arrow_keys``
    (for rules that key each value alone) normalizes the distinct strings of an Arrow
    dictionary without a Python string per value."""

    def __init__(self, from_codes: FromCodes, arrow_keys: ArrowKeys | None = None) -> None:
        self.from_codes = from_codes
        self.arrow_keys = arrow_keys

    def from_dictionary(self, lc: IntArray, rc: IntArray, dictionary: pa.Array) -> Comparison:
        """:meth:`from_codes` with the unique values as an Arrow array of strings."""
        keys = self.arrow_keys(dictionary) if self.arrow_keys is not None else None
        if keys is None:
            return self.from_codes(lc, rc, dictionary.to_pylist())
        lk, rk = take_codes(keys, lc, -1), take_codes(keys, rc, -1)
        return comparison_of(lk, rk, lk == rk)

    def __call__(self, left: pd.Series[Any], right: pd.Series[Any]) -> Comparison:
        values = _pair_values(left, right)
        encoded = string_dictionary(values)
        if encoded is not None:  # only strings (and missing values): hashed by Arrow
            codes, dictionary = encoded
            return self.from_dictionary(codes[: len(left)], codes[len(left) :], dictionary)
        return self.from_codes(*_factorized(values, len(left)))


def string_dictionary(values: npt.NDArray[np.object_]) -> tuple[IntArray, pa.Array] | None:
    """Codes of ``values`` into an Arrow array of their distinct strings (-1 for missing),
    when every value is a string or missing (``None``, NaN, ``pd.NA``), else ``None``. The
    codes group the values as :func:`pd.factorize` does; hashing UTF-8 in Arrow (without
    the GIL) is much faster than hashing a Python object per value."""
    if pd.api.types.infer_dtype(values, skipna=True) != "string":
        return None
    try:
        encoded = pa.array(values, type=pa.large_string(), from_pandas=True).dictionary_encode()
    except (pa.ArrowException, UnicodeError):  # lone surrogates: not UTF-8
        return None
    codes = np.asarray(encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False), np.intp)
    return codes, encoded.dictionary


def hashable(value: Any) -> Any:
    """Lists, dicts and sets as canonical JSON text, so that they can be factorized."""
    if isinstance(value, list | dict | set):
        return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)
    return value


def _pair_values(left: pd.Series[Any], right: pd.Series[Any]) -> npt.NDArray[np.object_]:
    """The values of ``left`` then ``right``, as one object array."""
    if len(left) != len(right):
        raise CompareError("comparator inputs differ in length")
    return np.concatenate([left.to_numpy(dtype=object), right.to_numpy(dtype=object)])


def _factorized(values: npt.NDArray[np.object_], n: int) -> tuple[IntArray, IntArray, list[Any]]:
    """Codes of the values of both sides (the first ``n`` are the left's) into one list of
    their unique raw values (-1 for missing)."""
    try:
        codes, uniques = pd.factorize(values)
    except TypeError:
        codes, uniques = pd.factorize(np.array([hashable(v) for v in values], dtype=object))
    codes = np.asarray(codes, dtype=np.intp)
    return codes[:n], codes[n:], list(uniques)


def take_codes(per_unique: npt.NDArray[Any], codes: IntArray, fill: Any) -> npt.NDArray[Any]:
    """Per-unique values spread back over the cells; ``fill`` where the code is -1."""
    # code -1 reads the last entry: ``fill``, appended (one gather, no mask)
    extended = np.append(per_unique, np.asarray([fill], dtype=per_unique.dtype))
    out: npt.NDArray[Any] = extended[codes]
    return out


def normalized_keys(normalized: list[Any]) -> IntArray:
    """Integer key per unique raw value: equal normalized values share a key, empty is -1."""
    values = np.empty(len(normalized), dtype=object)
    values[:] = normalized
    try:
        codes, _ = pd.factorize(values)
    except TypeError:
        codes, _ = pd.factorize(np.array([hashable(v) for v in normalized], dtype=object))
    return np.asarray(codes, dtype=np.intp)


def comparison_of(
    lk: IntArray, rk: IntArray, match: BoolArray, score: FloatArray | None = None
) -> Comparison:
    le, re_ = lk < 0, rk < 0
    either = le | re_
    match = match & ~either
    # without a score: the match, 0.0 already wherever a side is empty
    score = match.astype(np.float64) if score is None else np.where(either, 0.0, score)
    score[le & re_] = 1.0
    return Comparison(left_empty=le, right_empty=re_, match=match, score=score)
