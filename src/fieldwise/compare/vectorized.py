"""Vectorized number parsing with Arrow string kernels: the same rules as ``parse_number``.

Amount strings are mostly unique (``"€ 1.234,50"``), so normalizing "once per unique value" still
means once per cell; this module parses them in bulk. It handles only strings made of characters
whose meaning is unambiguous here (digits, separators, signs, parentheses, plain spaces, ASCII
letters and a few currency marks, all unchanged by NFKC) and that end as plain digits; everything
else is left to :func:`fieldwise.compare.normalize.parse_number`, so results are identical.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["parse_number_strings"]

_SAFE = r"^[0-9.,()+\- A-Za-z€$£¥₹₣%'’_−–]+$"
_NOISE = r"[A-Za-z€$£¥₹₣%\s'’_]"
_PLAIN = r"^\d+(\.\d+)?$"
_SCIENTIFIC = r"^\s*[+-]?\d+(\.\d+)?[eE][+-]?\d+\s*$"  # the scalar parser reads these


def _np(array: pa.Array | pa.ChunkedArray) -> npt.NDArray[np.int64]:
    return np.asarray(array.to_numpy(zero_copy_only=False), dtype=np.int64)


def _bool(array: pa.Array | pa.ChunkedArray) -> npt.NDArray[np.bool_]:
    return np.asarray(array.to_numpy(zero_copy_only=False), dtype=np.bool_)


def parse_number_strings(
    strings: list[str],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """Parse many number strings at once; returns (values, handled).

    ``values[i]`` equals ``parse_number(strings[i])`` wherever ``handled[i]`` is true; the other
    entries are NaN and must go through the scalar parser.
    """
    n = len(strings)
    values = np.full(n, np.nan)
    if n == 0:
        return values, np.zeros(0, dtype=np.bool_)
    raw = pa.array(strings, type=pa.string())
    safe = _bool(pc.match_substring_regex(raw, _SAFE)) & ~_bool(
        pc.match_substring_regex(raw, _SCIENTIFIC)
    )
    text = pc.utf8_trim(raw, " ")
    negative = _bool(pc.and_(pc.starts_with(text, "("), pc.ends_with(text, ")")))
    text = pc.if_else(pa.array(negative), pc.utf8_slice_codeunits(text, 1, -1), text)
    text = pc.replace_substring(pc.replace_substring(text, "−", "-"), "–", "-")
    text = pc.replace_substring_regex(text, _NOISE, "")
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
