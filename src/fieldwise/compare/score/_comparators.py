"""Comparators: factories configured per field that return vectorized comparison functions.

A comparator takes two equally long Series (left = expected, right = predicted; or two versions'
predictions) and returns a :class:`Comparison`. Both columns are factorized together, each unique
raw value is normalized once (numbers and numeric dates in bulk with Arrow kernels, the rest in
Python), and the per-cell work is numpy over integer codes. Numbers and currency amounts live in
:mod:`~fieldwise.compare.score._amounts`, the shared helpers in ``_base``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from fieldwise._errors import CompareError
from fieldwise.compare._spec import FieldSpec
from fieldwise.compare.score._amounts import currency, number
from fieldwise.compare.score._base import (
    ArrowKeys,
    CodedComparator,
    Comparator,
    Comparison,
    IntArray,
    comparison_of,
    normalized_keys,
    take_codes,
)
from fieldwise.compare.score._normalize import (
    normalize_text,
    parse_bool,
    parse_date,
)
from fieldwise.compare.score._vectorized import date_days, date_keys, normalize_text_array

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


def _keyed_bulk(
    normalize_all: Callable[[list[Any]], list[Any]], arrow_keys: ArrowKeys | None = None
) -> Comparator:
    """Equality of normalized values; ``normalize_all`` maps the list of unique raw values."""

    def from_codes(lc: IntArray, rc: IntArray, uniques: list[Any]) -> Comparison:
        keys = normalized_keys(normalize_all(uniques))
        lk, rk = take_codes(keys, lc, -1), take_codes(keys, rc, -1)
        return comparison_of(lk, rk, lk == rk)

    return CodedComparator(from_codes, arrow_keys)


def _folded_keys(folds: dict[str, bool]) -> ArrowKeys:
    """Keys of ``normalize_text(u, **folds)`` of every distinct string of an Arrow array, by
    Arrow kernels (``None`` when a string is not ASCII or lines are folded: then the scalar
    rule decides)."""

    def keys(dictionary: pa.Array) -> IntArray | None:
        if folds.get("fold_lines"):
            return None
        bulk = {k: v for k, v in folds.items() if k != "fold_lines"}
        text, handled = normalize_text_array(dictionary, **bulk)
        if not handled.all():
            return None
        encoded = text.dictionary_encode()
        out = np.asarray(encoded.indices.to_numpy(zero_copy_only=False), dtype=np.intp)
        empty = pc.index(encoded.dictionary, "").as_py()
        if empty >= 0:  # normalize_text gives None for what folds to nothing
            out[out == empty] = -1
        return out

    return keys


def _folds(
    case_sensitive: bool,
    normalize_whitespace: bool,
    ignore_punctuation: bool,
    ignore_spaces: bool,
    fold_lines: bool,
) -> dict[str, bool]:
    """The keyword arguments of ``normalize_text`` for these folds."""
    return {
        "case_sensitive": case_sensitive,
        "normalize_whitespace": normalize_whitespace,
        "ignore_punctuation": ignore_punctuation,
        "ignore_spaces": ignore_spaces,
        "fold_lines": fold_lines,
    }


def _in_bulk(
    uniques: list[Any],
    bulk: Callable[[pa.Array], tuple[list[Any], npt.NDArray[np.bool_]]],
    scalar: Callable[[Any], Any],
) -> list[Any]:
    """``scalar(u)`` of every unique value: the strings at once by ``bulk`` (Arrow kernels of
    the same rule, giving (values, handled)), then one by one those it did not read and
    every other value."""
    out: list[Any] = [None] * len(uniques)
    done = np.zeros(len(uniques), dtype=np.bool_)
    strings = [i for i, u in enumerate(uniques) if type(u) is str]
    if strings:
        values, handled = bulk(pa.array([uniques[i] for i in strings], type=pa.string()))
        for i, value, ok in zip(strings, values, handled.tolist(), strict=True):
            if ok:
                out[i] = value
                done[i] = True
    for i in np.flatnonzero(~done).tolist():
        out[i] = scalar(uniques[i])
    return out


def _folded_texts(uniques: list[Any], folds: dict[str, bool]) -> list[str | None]:
    """``normalize_text(u, **folds)`` of every unique value (ASCII strings in bulk, unless
    lines are folded)."""
    if folds.get("fold_lines"):
        return [normalize_text(u, **folds) for u in uniques]
    bulk = {k: v for k, v in folds.items() if k != "fold_lines"}

    def texts(raw: pa.Array) -> tuple[list[Any], npt.NDArray[np.bool_]]:
        text, handled = normalize_text_array(raw, **bulk)
        return [t or None for t in text.to_pylist()], handled

    return _in_bulk(uniques, texts, lambda u: normalize_text(u, **folds))


def exact_string(
    *,
    case_sensitive: bool = False,
    normalize_whitespace: bool = True,
    ignore_punctuation: bool = False,
    ignore_spaces: bool = False,
    fold_lines: bool = False,
) -> Comparator:
    """Equality after NFKC and the chosen folds (case, whitespace runs, punctuation, every
    space, line breaks of a multi-line value)."""
    folds = _folds(
        case_sensitive, normalize_whitespace, ignore_punctuation, ignore_spaces, fold_lines
    )
    return _keyed_bulk(lambda uniques: _folded_texts(uniques, folds), _folded_keys(folds))


def enum(values: tuple[str, ...] = (), *, case_sensitive: bool = False) -> Comparator:
    """Equality of enum labels after folding; a label matching an allowed value counts as it."""
    canon = {normalize_text(v, case_sensitive=case_sensitive): v for v in values}
    folds = {"case_sensitive": case_sensitive}

    def normalize_all(uniques: list[Any]) -> list[Any]:
        texts = _folded_texts(uniques, folds)
        return [canon.get(text, text) for text in texts]

    return _keyed_bulk(normalize_all)


def boolean() -> Comparator:
    """Equality of truth values read from yes/no, true/false, 1/0, ja/nein, x…"""
    return _keyed_bulk(lambda uniques: [parse_bool(u) for u in uniques])


def date(date_order: str = "YMD") -> Comparator:
    """Equality of ISO dates parsed from many forms; ``date_order`` reads ambiguous ones."""

    def isos(raw: pa.Array) -> tuple[list[Any], npt.NDArray[np.bool_]]:
        days, valid = date_days(raw, date_order)
        return np.datetime_as_string(days, unit="D").tolist(), valid

    def normalize_all(uniques: list[Any]) -> list[Any]:
        return _in_bulk(uniques, isos, lambda u: parse_date(u, date_order=date_order))

    # distinct strings all read in Arrow: their days are the keys, no ISO string per value
    return _keyed_bulk(normalize_all, lambda dictionary: date_keys(dictionary, date_order))


def fuzzy_text(
    *,
    threshold: float = 0.9,
    case_sensitive: bool = False,
    normalize_whitespace: bool = True,
    ignore_punctuation: bool = False,
    ignore_spaces: bool = False,
    fold_lines: bool = False,
) -> Comparator:
    """rapidfuzz ``ratio`` similarity (0..1) of the folded texts; a match when >= threshold.

    Similarity is computed once per unique (expected, predicted) pair with ``process.cpdist``.
    """
    folds = _folds(
        case_sensitive, normalize_whitespace, ignore_punctuation, ignore_spaces, fold_lines
    )

    def from_codes(lc: IntArray, rc: IntArray, uniques: list[Any]) -> Comparison:
        texts = _folded_texts(uniques, folds)
        keys = normalized_keys(texts)
        lk, rk = take_codes(keys, lc, -1), take_codes(keys, rc, -1)
        score = np.zeros(len(lk), dtype=np.float64)
        both = (lk >= 0) & (rk >= 0)
        if both.any():
            width = int(keys.max()) + 1
            pair = lk[both].astype(np.int64) * width + rk[both]
            pair_codes, pairs = pd.factorize(pair)
            by_key = {int(k): texts[i] for i, k in enumerate(keys) if k >= 0}
            queries = [by_key[int(p) // width] for p in pairs]
            choices = [by_key[int(p) % width] for p in pairs]
            from rapidfuzz import fuzz, process  # only fuzzy text needs it (not every compare)

            sims = process.cpdist(queries, choices, scorer=fuzz.ratio, dtype=np.float64) / 100.0
            score[both] = np.asarray(sims, dtype=np.float64)[pair_codes]
        return comparison_of(lk, rk, score >= threshold - 1e-12, score)

    return CodedComparator(from_codes)


def comparator_for(spec: FieldSpec) -> Comparator:
    """The comparator that ``spec`` describes (arrays are aligned first, see ``align``)."""
    folds = _folds(
        spec.case_sensitive,
        spec.normalize_whitespace,
        spec.ignore_punctuation,
        spec.ignore_spaces,
        spec.fold_lines,
    )
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
