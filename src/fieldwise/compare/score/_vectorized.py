"""Vectorized parsing with Arrow string kernels, of the rules :mod:`._normalize` defines.

Amount strings are mostly unique (``"€ 1.234,50"``), so normalizing "once per unique value" still
means once per cell; this module parses them in bulk. The patterns (what an amount's noise is,
the date forms, month names, the two-digit-year pivot) are imported from
:mod:`fieldwise.compare.score._normalize`, not restated. It handles only strings made of
characters whose meaning is unambiguous here (digits, separators, signs, parentheses, plain
spaces, ASCII letters and the currency signs ``parse_number`` drops, all unchanged by NFKC) and
that end as plain digits; everything else is left to the scalar parser, so results are identical.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from fieldwise.compare.score._normalize import (
    AMOUNT_SIGNS,
    CENTURY_PIVOT,
    DATE_COMPACT,
    DATE_DAY_NAME,
    DATE_ISO,
    DATE_NAME_DAY,
    DATE_NUMERIC,
    MONTHS,
    NUMBER_NOISE,
)

__all__ = ["date_days", "date_keys", "normalize_text_array", "parse_number_strings"]

_SAFE = rf"^[0-9.,()+\- A-Za-z{AMOUNT_SIGNS}'’_−–]+$"
_PLAIN = r"^\d+(\.\d+)?$"
_SCIENTIFIC = r"^\s*[+-]?\d+(\.\d+)?[eE][+-]?\d+\s*$"  # the scalar parser reads these


def _np(array: pa.Array | pa.ChunkedArray) -> npt.NDArray[np.int64]:
    return np.asarray(array.to_numpy(zero_copy_only=False), dtype=np.int64)


def _bool(array: pa.Array | pa.ChunkedArray) -> npt.NDArray[np.bool_]:
    return np.asarray(array.to_numpy(zero_copy_only=False), dtype=np.bool_)


def parse_number_strings(
    strings: list[str] | pa.Array,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """Parse many number strings at once (a list, or an Arrow array of strings without
    nulls); returns (values, handled).

    ``values[i]`` equals ``parse_number(strings[i])`` wherever ``handled[i]`` is true; the other
    entries are NaN and must go through the scalar parser.
    """
    n = len(strings)
    values = np.full(n, np.nan)
    if n == 0:
        return values, np.zeros(0, dtype=np.bool_)
    raw = strings if isinstance(strings, pa.Array) else pa.array(strings, type=pa.string())
    safe = _bool(pc.match_substring_regex(raw, _SAFE)) & ~_bool(
        pc.match_substring_regex(raw, _SCIENTIFIC)
    )
    text = pc.utf8_trim(raw, " ")
    negative = _bool(pc.and_(pc.starts_with(text, "("), pc.ends_with(text, ")")))
    text = pc.if_else(pa.array(negative), pc.utf8_slice_codeunits(text, 1, -1), text)
    text = pc.replace_substring(pc.replace_substring(text, "−", "-"), "–", "-")
    text = pc.replace_substring_regex(text, NUMBER_NOISE, "")
    trailing = _bool(pc.ends_with(text, "-"))
    negative ^= trailing
    text = pc.if_else(pa.array(trailing), pc.utf8_slice_codeunits(text, 0, -1), text)
    leading = _bool(pc.starts_with(text, "-"))
    negative ^= leading
    plus = ~leading & _bool(pc.starts_with(text, "+"))
    text = pc.if_else(pa.array(leading | plus), pc.utf8_slice_codeunits(text, 1), text)

    commas = _np(pc.count_substring(text, ","))
    dots = _np(pc.count_substring(text, "."))
    reverse = pc.utf8_reverse(text)
    comma_from_end = _np(pc.find_substring(reverse, ","))  # characters after the last comma
    dot_from_end = _np(pc.find_substring(reverse, "."))
    length = _np(pc.utf8_length(text))
    head = length - comma_from_end - 1
    head_is_zero = (head == 0) | ((head == 1) & _bool(pc.starts_with(text, "0")))
    both = (commas > 0) & (dots > 0)
    only_commas = (commas > 0) & (dots == 0)
    decimal_comma = (both & (comma_from_end < dot_from_end)) | (
        only_commas & (commas == 1) & ((comma_from_end != 3) | head_is_zero)
    )
    decimal_dot = (both & (dot_from_end < comma_from_end)) | ((dots == 1) & (commas == 0))

    comma_form = pc.replace_substring(pc.replace_substring(text, ".", ""), ",", ".")
    dot_form = pc.replace_substring(text, ",", "")
    grouped = pc.replace_substring(dot_form, ".", "")
    final = pc.if_else(
        pa.array(decimal_comma), comma_form, pc.if_else(pa.array(decimal_dot), dot_form, grouped)
    )
    handled = safe & _bool(pc.fill_null(pc.match_substring_regex(final, _PLAIN), False))
    if handled.any():
        idx = np.flatnonzero(handled)
        parsed = np.asarray(
            pc.cast(pc.take(final, pa.array(idx)), pa.float64()).to_numpy(zero_copy_only=False),
            dtype=np.float64,
        )
        values[idx] = np.where(negative[idx], -parsed, parsed)
    return values, handled


_MONTH_NAMES = pa.array(list(MONTHS), type=pa.string())
_MONTH_NUMBERS = np.array(list(MONTHS.values()), dtype=np.int64)


def _groups(
    text: pa.Array | pa.ChunkedArray, pattern: str, names: tuple[str, ...]
) -> tuple[npt.NDArray[np.bool_], list[npt.NDArray[np.int64]], list[npt.NDArray[np.int64]]]:
    """Which rows match, each named group as an int, and each group's length in characters."""
    found = pc.extract_regex(text, pattern)
    matched = _bool(pc.fill_null(pc.is_valid(found), False))
    ints, lengths = [], []
    for name in names:
        group = pc.struct_field(found, name)
        group = pc.if_else(pa.array(matched), group, "0")
        ints.append(_np(pc.cast(group, pa.int64())))
        lengths.append(_np(pc.utf8_length(group)))
    return matched, ints, lengths


def _named(
    text: pa.Array | pa.ChunkedArray, pattern: str
) -> tuple[npt.NDArray[np.bool_], list[npt.NDArray[np.int64]], npt.NDArray[np.int64]]:
    """Rows matching a month-name pattern whose month is a known name: (hit, [year, month,
    day], year length)."""
    hit, (y, d), (y_len, _) = _groups(text, pattern, ("y", "d"))
    found = pc.extract_regex(text, pattern)
    month_text = pc.if_else(pa.array(hit), pc.struct_field(found, "m"), "")
    index = np.asarray(
        pc.fill_null(pc.index_in(month_text, value_set=_MONTH_NAMES), -1).to_numpy(
            zero_copy_only=False
        ),
        dtype=np.int64,
    )
    known = hit & (index >= 0)
    month = np.where(known, _MONTH_NUMBERS[np.maximum(index, 0)], 0)
    return known, [y, month, d], y_len


def _two_digit_year(
    year: npt.NDArray[np.int64], length: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    return np.where(length == 2, year + np.where(year < CENTURY_PIVOT, 2000, 1900), year)


#: Days from 0001-01-01 to 1970-01-01: date keys counted from year 1 are never negative.
_DAYS_BEFORE_1970 = 719_162


def date_keys(dictionary: pa.Array, date_order: str) -> npt.NDArray[np.intp] | None:
    """A key per distinct string of an Arrow array of them: the day of the date that
    ``parse_date`` reads (days from 0001-01-01, so equal keys are equal ISO dates), when
    every string is read here; else ``None`` (the scalar parser decides)."""
    dates, valid = date_days(dictionary, date_order)
    if not valid.all():
        return None
    return np.asarray(dates.astype(np.int64) + _DAYS_BEFORE_1970, dtype=np.intp)


def date_days(
    raw: pa.Array, date_order: str
) -> tuple[npt.NDArray[np.datetime64], npt.NDArray[np.bool_]]:
    """The dates of an Arrow array of strings as days (``datetime64[D]``) and whether each is
    read here: the numeric forms (``2018-03-05``, ``20180305``, ``05.03.2018``, ``5/3/18``) and
    ASCII month names (``March 5, 2018``, ``5 Mar 2018``). Where read, the day is the one
    ``parse_date(s, date_order=date_order)`` gives; invalid dates and anything unusual are
    left to it."""
    n = len(raw)
    safe = _bool(pc.string_is_ascii(raw)) & ~_bool(
        pc.match_substring_regex(raw, r"[\x00-\x1f\x7f]")
    )
    text = pc.utf8_trim(raw, " ")
    year = np.zeros(n, dtype=np.int64)
    month = np.zeros(n, dtype=np.int64)
    day = np.zeros(n, dtype=np.int64)
    matched = np.zeros(n, dtype=np.bool_)
    for pattern in (DATE_ISO, DATE_COMPACT):
        hit, (y, m, d), _ = _groups(text, pattern, ("y", "m", "d"))
        hit &= ~matched
        year[hit], month[hit], day[hit] = y[hit], m[hit], d[hit]
        matched |= hit
    hit, (a, b, y), (a_len, _, y_len) = _groups(text, DATE_NUMERIC, ("a", "b", "y"))
    hit &= ~matched
    short_ymd = (y_len == 2) & (date_order == "YMD")
    day_first = ~short_ymd & ((a > 12) | ((b <= 12) & (date_order != "MDY")))
    y4 = _two_digit_year(y, y_len)
    yy = np.where(a_len == 1, a + 2000, _two_digit_year(a, a_len))  # zfill(2) then 2-digit rule
    year = np.where(hit, np.where(short_ymd, yy, y4), year)
    month = np.where(hit, np.where(short_ymd | day_first, b, a), month)
    day = np.where(hit, np.where(short_ymd, y, np.where(day_first, a, b)), day)
    matched |= hit
    if not matched.all():  # month names ("March 5, 2018", "5th Mar. 18") as parse_date reads
        words = pc.utf8_lower(pc.utf8_trim(pc.replace_substring_regex(raw, " +", " "), " "))
        for pattern in (DATE_DAY_NAME, DATE_NAME_DAY):
            hit, (y, m, d), y_len = _named(words, pattern)
            hit &= ~matched
            year = np.where(hit, _two_digit_year(y, y_len), year)
            month, day = np.where(hit, m, month), np.where(hit, d, day)
            matched |= hit

    valid = matched & safe & (year >= 1) & (year <= 9999) & (month >= 1) & (month <= 12)
    valid &= day >= 1
    months = ((np.where(valid, year, 1970) - 1970) * 12 + np.where(valid, month, 1) - 1).astype(
        "datetime64[M]"
    )
    first = months.astype("datetime64[D]")
    days_in_month = ((months + 1).astype("datetime64[D]") - first).astype(np.int64)
    valid &= day <= days_in_month
    return first + (np.where(valid, day, 1) - 1).astype("timedelta64[D]"), valid


# str.split() whitespace within ASCII, and string.punctuation as character ranges
_WHITESPACE = r"[\t\n\x0b\x0c\r\x1c-\x1f ]"
_PUNCTUATION = r"[!-/:-@\[-`{-~]"


_WHITESPACE_BYTES = np.zeros(256, dtype=np.bool_)
_WHITESPACE_BYTES[[9, 10, 11, 12, 13, 28, 29, 30, 31, 32]] = True  # _WHITESPACE, in UTF-8


def _may_have_whitespace(text: pa.Array) -> bool:
    """False only when no string of ``text`` has a :data:`_WHITESPACE` character: none of
    those bytes is anywhere in its UTF-8 data (a numpy lookup; no regex per string)."""
    if not isinstance(text, pa.Array) or not (
        pa.types.is_string(text.type) or pa.types.is_large_string(text.type)
    ):
        return True
    data = text.buffers()[2]
    return data is not None and bool(_WHITESPACE_BYTES[np.frombuffer(data, np.uint8)].any())


def normalize_text_array(
    raw: pa.Array,
    *,
    case_sensitive: bool = False,
    normalize_whitespace: bool = True,
    ignore_punctuation: bool = False,
    ignore_spaces: bool = False,
) -> tuple[pa.Array, npt.NDArray[np.bool_]]:
    """``normalize_text`` (``fold_lines`` off) of every string of an Arrow array, as an Arrow
    array (``""`` where ``normalize_text`` gives ``None``), and whether each was read here:
    only ASCII strings are (NFKC, Unicode case folding and whitespace are left to
    ``normalize_text``)."""
    handled = _bool(pc.string_is_ascii(raw))
    text = raw if case_sensitive else pc.ascii_lower(raw)  # casefold() of ASCII is lower()
    if ignore_punctuation:
        text = pc.replace_substring_regex(text, _PUNCTUATION, "")
    if not _may_have_whitespace(text):
        return text, handled  # no whitespace to fold or strip
    if ignore_spaces:
        text = pc.replace_substring_regex(text, _WHITESPACE + "+", "")
    elif normalize_whitespace:
        text = pc.replace_substring_regex(text, _WHITESPACE + "+", " ")
        text = pc.replace_substring_regex(text, "^ | $", "")
    else:
        text = pc.replace_substring_regex(text, "^" + _WHITESPACE + "+|" + _WHITESPACE + "+$", "")
    return text, handled
