"""Comparators: factories configured per field that return vectorized comparison functions.

A comparator takes two equally long Series (left = expected, right = predicted; or two versions'
predictions) and returns a :class:`Comparison`. Both columns are factorized together, each unique
raw value is normalized once in Python, and the per-cell work is numpy over integer codes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from rapidfuzz import fuzz, process

from fieldwise.compare.normalize import (
    Unparsed,
    normalize_text,
    parse_bool,
    parse_currency,
    parse_date,
    parse_number,
)
from fieldwise.compare.spec import FieldSpec
from fieldwise.compare.vectorized import parse_date_strings, parse_number_strings
from fieldwise.errors import CompareError

__all__ = [
    "Comparator",
    "Comparison",
    "boolean",
    "comparator_for",
    "currency",
    "date",
    "enum",
    "exact_string",
    "fuzzy_text",
    "number",
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


def _hashable(value: Any) -> Any:
    if isinstance(value, list | dict | set):
        return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)
    return value


def _factorize(left: pd.Series[Any], right: pd.Series[Any]) -> tuple[IntArray, IntArray, list[Any]]:
    """Codes of both sides into one list of unique raw values (-1 for missing)."""
    if len(left) != len(right):
        raise CompareError("comparator inputs differ in length")
    values = np.concatenate([left.to_numpy(dtype=object), right.to_numpy(dtype=object)])
    try:
        codes, uniques = pd.factorize(values)
    except TypeError:
        codes, uniques = pd.factorize(np.array([_hashable(v) for v in values], dtype=object))
    codes = np.asarray(codes, dtype=np.intp)
    n = len(left)
    return codes[:n], codes[n:], list(uniques)


def _take(per_unique: npt.NDArray[Any], codes: IntArray, fill: Any) -> npt.NDArray[Any]:
    out = (
        per_unique[np.where(codes >= 0, codes, 0)] if len(per_unique) else np.full(len(codes), fill)
    )
    if len(per_unique):
        out[codes < 0] = fill
    return out


def _keys(normalized: list[Any]) -> IntArray:
    """Integer key per unique raw value: equal normalized values share a key, empty is -1."""
    values = np.empty(len(normalized), dtype=object)
    values[:] = normalized
    try:
        codes, _ = pd.factorize(values)
    except TypeError:
        codes, _ = pd.factorize(np.array([_hashable(v) for v in normalized], dtype=object))
    return np.asarray(codes, dtype=np.intp)


def _result(
    lk: IntArray, rk: IntArray, match: BoolArray, score: FloatArray | None = None
) -> Comparison:
    le, re_ = lk < 0, rk < 0
    match = match & ~le & ~re_
    if score is None:
        score = match.astype(np.float64)
    score = np.where(le & re_, 1.0, np.where(le | re_, 0.0, score))
    return Comparison(left_empty=le, right_empty=re_, match=match, score=score)


def _keyed_bulk(normalize_all: Callable[[list[Any]], list[Any]]) -> Comparator:
    """Equality of normalized values; ``normalize_all`` maps the list of unique raw values."""

    def compare(left: pd.Series[Any], right: pd.Series[Any]) -> Comparison:
        lc, rc, uniques = _factorize(left, right)
        keys = _keys(normalize_all(uniques))
        lk, rk = _take(keys, lc, -1), _take(keys, rc, -1)
        return _result(lk, rk, lk == rk)

    return compare


def _keyed(normalize: Callable[[Any], Any]) -> Comparator:
    return _keyed_bulk(lambda uniques: [normalize(u) for u in uniques])


def exact_string(
    *,
    case_sensitive: bool = False,
    normalize_whitespace: bool = True,
    ignore_punctuation: bool = False,
) -> Comparator:
    """Equality after NFKC and the chosen folds (case, whitespace runs, punctuation)."""
    return _keyed(
        partial(
            normalize_text,
            case_sensitive=case_sensitive,
            normalize_whitespace=normalize_whitespace,
            ignore_punctuation=ignore_punctuation,
        )
    )


def enum(values: tuple[str, ...] = (), *, case_sensitive: bool = False) -> Comparator:
    """Equality of enum labels after folding; a label matching an allowed value counts as it."""
    canon = {normalize_text(v, case_sensitive=case_sensitive): v for v in values}

    def norm(value: Any) -> Any:
        text = normalize_text(value, case_sensitive=case_sensitive)
        return canon.get(text, text)

    return _keyed(norm)


def boolean() -> Comparator:
    """Equality of truth values read from yes/no, true/false, 1/0, ja/nein, x…"""
    return _keyed(parse_bool)


def date(date_order: str = "YMD") -> Comparator:
    """Equality of ISO dates parsed from many forms; ``date_order`` reads ambiguous ones."""

    def normalize_all(uniques: list[Any]) -> list[Any]:
        strings = [i for i, u in enumerate(uniques) if type(u) is str]
        iso, handled = parse_date_strings([uniques[i] for i in strings], date_order)
        out: list[Any] = [None] * len(uniques)
        done = set()
        for i, value, ok in zip(strings, iso, handled.tolist(), strict=True):
            if ok:
                out[i] = value
                done.add(i)
        for i, u in enumerate(uniques):
            if i not in done:
                out[i] = parse_date(u, date_order=date_order)
        return out

    return _keyed_bulk(normalize_all)


def _parsed_amounts(
    left: pd.Series[Any], right: pd.Series[Any], with_code: bool
) -> tuple[FloatArray, IntArray, IntArray]:
    """Per cell of ``left`` then ``right``: the amount (NaN if none), a key (-1 empty, else the
    key of the folded text of an unparsed value, 0 for a number) and the currency-code key.

    Python numbers are converted in bulk; the unique strings are parsed by Arrow kernels
    (:mod:`~fieldwise.compare.vectorized`) where they can be, by :func:`parse_number` /
    :func:`parse_currency` otherwise.
    """
    if len(left) != len(right):
        raise CompareError("comparator inputs differ in length")
    values = np.concatenate([left.to_numpy(dtype=object), right.to_numpy(dtype=object)])
    empty = np.asarray(pd.isna(values), dtype=np.bool_)
    values[empty] = np.nan
    try:  # all numbers (or strings float() reads the same way parse_number does): one C pass
        amounts = values.astype(np.float64)
    except (TypeError, ValueError):
        numeric = np.fromiter(
            (isinstance(v, int | float) for v in values), dtype=np.bool_, count=len(values)
        )
        amounts = np.full(len(values), np.nan)
        amounts[numeric] = values[numeric].astype(np.float64)
    keys = np.where(empty, -1, 0).astype(np.intp)
    codes = np.full(len(values), -1, dtype=np.intp)
    rest = np.flatnonzero(~np.isfinite(amounts) & ~empty)
    if with_code:  # a string amount may carry a code even when it parses as a number
        rest = np.flatnonzero(~empty & np.array([isinstance(v, str | dict) for v in values]))
    if len(rest):
        try:
            rcodes, uniques = pd.factorize(values[rest])
        except TypeError:
            rcodes, uniques = pd.factorize(
                np.array([_hashable(v) for v in values[rest]], dtype=object)
            )
        fast = np.full(len(uniques), np.nan)
        if not with_code:
            strings = [i for i, u in enumerate(uniques) if type(u) is str]
            got, handled = parse_number_strings([uniques[i] for i in strings])
            fast[np.asarray(strings, dtype=np.intp)[handled]] = got[handled]
        parsed = [
            parse_currency(u) if with_code else (parse_number(u), None) if f != f else (f, None)
            for u, f in zip(uniques, fast.tolist(), strict=True)
        ]
        amount = np.array([a if type(a) is float else np.nan for a, _ in parsed])
        text = [a if isinstance(a, Unparsed) else None for a, _ in parsed]
        is_empty_u = np.array([a is None for a, _ in parsed], dtype=np.bool_)
        text_key = _keys(text) + 1  # 0 stays "a number"
        amounts[rest] = amount[rcodes]
        keys[rest] = np.where(is_empty_u[rcodes], -1, text_key[rcodes])
        codes[rest] = _keys([c for _, c in parsed])[rcodes]
    return amounts, keys, codes


def _tolerant(
    amounts: FloatArray, keys: IntArray, n: int, atol: float, rtol: float
) -> tuple[IntArray, IntArray, BoolArray]:
    """Within tolerance where both sides are numbers; equal folded text where both are not."""
    lv, rv, lk, rk = amounts[:n], amounts[n:], keys[:n], keys[n:]
    both = ~np.isnan(lv) & ~np.isnan(rv)
    with np.errstate(invalid="ignore"):
        close = np.abs(lv - rv) <= atol + rtol * np.abs(lv) + 1e-12 * np.abs(lv)
    text = np.isnan(lv) & np.isnan(rv) & (lk == rk)
    return lk, rk, np.asarray(np.where(both, close, text), dtype=np.bool_)


def number(*, atol: float = 0.0, rtol: float = 0.0) -> Comparator:
    """|predicted - expected| <= atol + rtol * |expected|, after parsing number strings."""

    def compare(left: pd.Series[Any], right: pd.Series[Any]) -> Comparison:
        amounts, keys, _ = _parsed_amounts(left, right, with_code=False)
        return _result(*_tolerant(amounts, keys, len(left), atol, rtol))

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
        return _result(lk, rk, match)

    return compare


def fuzzy_text(
    *,
    threshold: float = 0.9,
    case_sensitive: bool = False,
    normalize_whitespace: bool = True,
    ignore_punctuation: bool = False,
) -> Comparator:
    """rapidfuzz ``ratio`` similarity (0..1) of the folded texts; a match when >= threshold.

    Similarity is computed once per unique (expected, predicted) pair with ``process.cpdist``.
    """
    norm = partial(
        normalize_text,
        case_sensitive=case_sensitive,
        normalize_whitespace=normalize_whitespace,
        ignore_punctuation=ignore_punctuation,
    )

    def compare(left: pd.Series[Any], right: pd.Series[Any]) -> Comparison:
        lc, rc, uniques = _factorize(left, right)
        texts = [norm(u) for u in uniques]
        keys = _keys(texts)
        lk, rk = _take(keys, lc, -1), _take(keys, rc, -1)
        score = np.zeros(len(lk), dtype=np.float64)
        both = (lk >= 0) & (rk >= 0)
        if both.any():
            width = int(keys.max()) + 1
            pair = lk[both].astype(np.int64) * width + rk[both]
            pair_codes, pairs = pd.factorize(pair)
            by_key = {int(k): texts[i] for i, k in enumerate(keys) if k >= 0}
            queries = [by_key[int(p) // width] for p in pairs]
            choices = [by_key[int(p) % width] for p in pairs]
            sims = process.cpdist(queries, choices, scorer=fuzz.ratio, dtype=np.float64) / 100.0
            score[both] = np.asarray(sims, dtype=np.float64)[pair_codes]
        return _result(lk, rk, score >= threshold - 1e-12, score)

    return compare


def comparator_for(spec: FieldSpec) -> Comparator:
    """The comparator that ``spec`` describes (arrays are aligned first, see ``align``)."""
    folds = {
        "case_sensitive": spec.case_sensitive,
        "normalize_whitespace": spec.normalize_whitespace,
        "ignore_punctuation": spec.ignore_punctuation,
    }
    match spec.type:
        case "string":
            return exact_string(**folds)
        case "text":
            return fuzzy_text(threshold=spec.threshold, **folds)
        case "number":
            return number(atol=spec.atol, rtol=spec.rtol)
        case "currency":
            return currency(
                atol=spec.atol, rtol=spec.rtol, currency_required=spec.currency_required
            )
        case "date":
            return date(spec.date_order)
        case "enum":
            return enum(spec.values, case_sensitive=spec.case_sensitive)
        case "boolean":
            return boolean()
    raise CompareError(f"field {spec.name!r}: no comparator for type {spec.type!r}")
