"""Number and currency comparators: tolerances over parsed amounts."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa

from fieldwise._errors import CompareError
from fieldwise.compare.score._base import (
    BoolArray,
    Comparator,
    Comparison,
    FloatArray,
    IntArray,
    comparison_of,
    hashable,
    normalized_keys,
    string_dictionary,
)
from fieldwise.compare.score._normalize import Unparsed, parse_currency, parse_number
from fieldwise.compare.score._vectorized import parse_number_strings

__all__ = ["currency", "number", "within"]


def _instances(
    values: npt.NDArray[np.object_], kinds: tuple[type, ...], also: tuple[type, ...]
) -> BoolArray:
    """``isinstance(v, kinds)`` per value: the types are factorized (one hash per value, in C)
    and each distinct type among ``kinds``, their subclasses ``also`` and the plain JSON types
    is answered once; only values of any other type (numpy scalars, say) are asked one by
    one."""
    codes, types = pd.factorize(np.asarray(_type_of(values), dtype=object))
    plain = (str, float, int, bool, dict, list, type(None))
    known = [t in kinds or t in also or t in plain for t in types]
    per_type = np.array([t in kinds or t in also for t in types] + [False], dtype=np.bool_)
    out: BoolArray = per_type[codes]
    others = [k for k, ok in enumerate(known) if not ok]
    if others:
        other = np.flatnonzero(np.isin(codes, others))
        out[other] = [isinstance(v, kinds) for v in values[other]]
    return out


_type_of = np.frompyfunc(type, 1, 1)


def _parsed_amounts(
    left: pd.Series[Any], right: pd.Series[Any], with_code: bool
) -> tuple[FloatArray, IntArray, IntArray]:
    """Per cell of ``left`` then ``right``: the amount (NaN if none), a key (-1 empty, else the
    key of the folded text of an unparsed value, 0 for a number) and the currency-code key.

    Python numbers are converted in bulk; the unique strings are parsed by Arrow kernels
    (:mod:`~fieldwise.compare.score._vectorized`) where they can be, by :func:`parse_number` /
    :func:`parse_currency` otherwise.
    """
    if len(left) != len(right):
        raise CompareError("comparator inputs differ in length")
    if left.dtype.kind == right.dtype.kind == "f":  # parsed already (wide columns): NaN empty
        amounts = np.concatenate([left.to_numpy(), right.to_numpy()])
        keys = -np.isnan(amounts).astype(np.intp)  # -1 where empty, else 0 (a number)
        return amounts, keys, np.full(len(amounts), -1, dtype=np.intp)
    values = np.concatenate([left.to_numpy(dtype=object), right.to_numpy(dtype=object)])
    empty = np.asarray(pd.isna(values), dtype=np.bool_)
    values[empty] = np.nan
    try:  # all numbers (or strings float() reads the same way parse_number does): one C pass
        amounts = values.astype(np.float64)
    except (TypeError, ValueError):
        numeric = _instances(values, (int, float), (bool,))
        amounts = np.full(len(values), np.nan)
        amounts[numeric] = values[numeric].astype(np.float64)
    keys = np.where(empty, -1, 0).astype(np.intp)
    codes = np.full(len(values), -1, dtype=np.intp)
    rest = np.flatnonzero(~np.isfinite(amounts) & ~empty)
    if with_code:  # a string amount may carry a code even when it parses as a number
        rest = np.flatnonzero(~empty & _instances(values, (str, dict), ()))
    if len(rest):
        # only strings (the usual amounts): hashed and parsed in Arrow, no Python string each
        encoded = None if with_code else string_dictionary(values[rest])
        if encoded is not None:
            rcodes, dictionary = encoded
            n_uniques = len(dictionary)
            fast = np.full(n_uniques, np.nan)
            got, handled = parse_number_strings(dictionary)
            fast[handled] = got[handled]
        else:
            try:
                rcodes, uniques = pd.factorize(values[rest])
            except TypeError:  # dicts ({"amount", "currency"}): factorize their JSON
                rcodes, _ = pd.factorize(
                    np.array([hashable(v) for v in values[rest]], dtype=object)
                )
                _, first = np.unique(rcodes, return_index=True)
                uniques = values[rest][first]  # parse the originals
            n_uniques = len(uniques)
            fast = np.full(n_uniques, np.nan)
            if not with_code:
                strings = [i for i, u in enumerate(uniques) if type(u) is str]
                got, handled = parse_number_strings([uniques[i] for i in strings])
                fast[np.asarray(strings, dtype=np.intp)[handled]] = got[handled]
        # what Arrow parsed is a plain amount; only the others go through the scalar parsers
        amount = fast.copy()
        is_empty_u = np.zeros(n_uniques, dtype=np.bool_)
        text: list[Any] = [None] * n_uniques
        code: list[Any] = [None] * n_uniques
        slow = list(range(n_uniques)) if with_code else np.flatnonzero(np.isnan(fast)).tolist()
        if encoded is not None:
            slow_values = encoded[1].take(pa.array(slow, type=pa.int64())).to_pylist()
        else:
            slow_values = [uniques[i] for i in slow]
        for i, u in zip(slow, slow_values, strict=True):
            a, c = (
                parse_currency(u) if with_code or isinstance(u, dict) else (parse_number(u), None)
            )
            amount[i] = a if type(a) is float else np.nan
            text[i] = a if isinstance(a, Unparsed) else None
            is_empty_u[i] = a is None
            code[i] = c
        # text and code are None except where the scalar parsers ran: only those are keyed
        # (in the same order, so the same keys as keying every unique; None is -1)
        text_key = np.zeros(n_uniques, dtype=np.intp)  # 0 stays "a number"
        code_key = np.full(n_uniques, -1, dtype=np.intp)
        if slow:
            text_key[slow] = normalized_keys([text[i] for i in slow]) + 1
            code_key[slow] = normalized_keys([code[i] for i in slow])
        amounts[rest] = amount[rcodes]
        keys[rest] = np.where(is_empty_u[rcodes], -1, text_key[rcodes])
        codes[rest] = code_key[rcodes]
    return amounts, keys, codes


def within(lv: FloatArray, rv: FloatArray, atol: float, rtol: float) -> BoolArray:
    """|lv - rv| <= atol + rtol |lv| + 1e-12 |lv| (False wherever a side is NaN), computed in
    place: few temporaries of a long column."""
    with np.errstate(invalid="ignore"):  # inf - inf, inf * 0: NaN, never close
        magnitude = np.abs(lv)
        tolerance = magnitude * rtol
        tolerance += atol
        magnitude *= 1e-12
        tolerance += magnitude
        distance = np.subtract(lv, rv)
        np.abs(distance, out=distance)
        close: BoolArray = distance <= tolerance
    return close


def _tolerant(
    amounts: FloatArray, keys: IntArray, n: int, atol: float, rtol: float
) -> tuple[IntArray, IntArray, BoolArray]:
    """Within tolerance where both sides are numbers; equal folded text where both are not."""
    lv, rv, lk, rk = amounts[:n], amounts[n:], keys[:n], keys[n:]
    close = within(lv, rv, atol, rtol)
    text = np.isnan(lv) & np.isnan(rv) & (lk == rk)
    close |= text  # both NaN: never close, so the folded texts decide
    return lk, rk, close


def number(*, atol: float = 0.0, rtol: float = 0.0) -> Comparator:
    """|predicted - expected| <= atol + rtol * |expected|, after parsing number strings."""

    def compare(left: pd.Series[Any], right: pd.Series[Any]) -> Comparison:
        amounts, keys, _ = _parsed_amounts(left, right, with_code=False)
        return comparison_of(*_tolerant(amounts, keys, len(left), atol, rtol))

    return compare


def currency(
    *, atol: float = 0.005, rtol: float = 0.0, currency_required: bool = False
) -> Comparator:
    """An amount within tolerance; with ``currency_required`` the codes must be equal too
    (a value without a code then only matches another without one)."""

    def compare(left: pd.Series[Any], right: pd.Series[Any]) -> Comparison:
        amounts, keys, codes = _parsed_amounts(left, right, with_code=currency_required)
        lk, rk, match = _tolerant(amounts, keys, len(left), atol, rtol)
        if currency_required:
            match &= codes[: len(left)] == codes[len(left) :]
        return comparison_of(lk, rk, match)

    return compare
