"""Scalar normalizers: one raw value in, one canonical value out.

These run once per *unique* raw value (see :mod:`fieldwise.compare.score._comparators`), so they may
be plain Python. Each returns ``None`` for an empty value and ``Unparsed`` when a non-empty value
cannot be read as the type (compared then as a folded string, so it never equals a real value).
"""

from __future__ import annotations

import datetime as dt
import math
import re
import string
import unicodedata
from typing import Any

__all__ = [
    "AMOUNT_SIGNS",
    "CENTURY_PIVOT",
    "DATE_COMPACT",
    "DATE_DAY_NAME",
    "DATE_ISO",
    "DATE_NAME_DAY",
    "DATE_NUMERIC",
    "MONTHS",
    "NUMBER_NOISE",
    "Unparsed",
    "is_empty",
    "normalize_text",
    "parse_bool",
    "parse_currency",
    "parse_date",
    "parse_number",
]


class Unparsed(str):
    """A non-empty value that could not be parsed as its field's type (keeps the folded text)."""

    __slots__ = ()


_PUNCT = str.maketrans("", "", string.punctuation + "«»„“”‘’‚–—…·")
# Symbols as people write them next to amounts; longer ones first ("R$" before "$"). Letter
# symbols count only as whole words, so "RM" in "FORM" is no ringgit. "kr" is left out: it
# names four currencies.
_CURRENCY_SYMBOLS = (
    ("HK$", "HKD"), ("NZ$", "NZD"), ("US$", "USD"), ("R$", "BRL"), ("S$", "SGD"),
    ("A$", "AUD"), ("C$", "CAD"), ("zł", "PLN"), ("Rs", "INR"), ("RM", "MYR"), ("Rp", "IDR"),
    ("€", "EUR"), ("$", "USD"), ("£", "GBP"), ("¥", "JPY"), ("₹", "INR"), ("₣", "CHF"),
    ("₩", "KRW"), ("₽", "RUB"), ("₺", "TRY"), ("₪", "ILS"), ("₦", "NGN"), ("₫", "VND"),
    ("฿", "THB"), ("₱", "PHP"), ("₴", "UAH"),
)  # fmt: skip
_WORD_SYMBOLS = {
    symbol: re.compile(rf"(?<![^\W\d_]){re.escape(symbol)}(?![^\W\d_])")
    for symbol, _ in _CURRENCY_SYMBOLS
    if symbol[-1].isalpha()
}
_CODE = re.compile(r"(?<![A-Za-z])([A-Z]{3})(?![A-Za-z])")
_NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?$")
_SCIENTIFIC = re.compile(r"^[+-]?\d+(\.\d+)?[eE][+-]?\d+$")
# What surrounds an amount: words in any script with their abbreviation dot ("Rs.", "zł",
# "EUR"), currency signs, spaces, apostrophes (Swiss thousands) and percent signs.
#: Currency and percent signs read as noise around an amount (each unchanged by NFKC, so the
#: bulk parser, which does not normalize, may read them too).
AMOUNT_SIGNS = "€$£¥₹₣₩₽₺₪₦₫฿₱₴%"
#: What is dropped from an amount, for this parser and the bulk one (where RE2's
#: ``[^\W\d_]`` is an ASCII letter: it reads only ASCII letters and the signs above).
NUMBER_NOISE = rf"[^\W\d_]+\.?|[{AMOUNT_SIGNS}\s'’_]"
_NOISE = re.compile(NUMBER_NOISE)
_SEPARATOR_BREAKS = re.compile(r"[,;]?[ \t]*[\n\r\v\f\x85\u2028\u2029]+\s*|[,;](?=\s)")
_TRUE = frozenset(
    {
        "true",
        "yes",
        "y",
        "1",
        "ja",
        "j",
        "x",
        "✓",
        "✔",
        "oui",
        "si",
        "sí",
        "wahr",
        "on",
        "checked",
        "t",
    }
)
_FALSE = frozenset({"false", "no", "n", "0", "nein", "off", "falsch", "non", "unchecked", "f"})


def is_empty(value: Any) -> bool:
    """None, NaN, pd.NA, an empty or blank string, or an empty container."""
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, list | tuple | dict):
        return len(value) == 0
    # pd.NA and NaT: comparing them does not give a bool
    return value is not value or type(value).__name__ in {"NAType", "NaTType"}


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def normalize_text(
    value: Any,
    *,
    case_sensitive: bool = False,
    normalize_whitespace: bool = True,
    ignore_punctuation: bool = False,
    ignore_spaces: bool = False,
    fold_lines: bool = False,
) -> str | None:
    """NFKC, then the optional folds; ``None`` when nothing is left.

    ``fold_lines`` reads a multi-line value (an address) as one line: line breaks, and the
    commas or semicolons that end a line or separate parts, become one space, so
    ``"1 Main St,\\nLeeds"``, ``"1 Main St\\nLeeds"`` and ``"1 Main St, Leeds"`` are equal.
    ``ignore_spaces`` drops every space (identifiers such as IBANs and VAT ids).
    """
    if isinstance(value, str):
        text = value if value.isascii() else unicodedata.normalize("NFKC", value)
    elif is_empty(value):
        return None
    else:
        text = unicodedata.normalize("NFKC", _as_text(value))
    if not case_sensitive:
        text = text.casefold()
    if fold_lines:
        text = _SEPARATOR_BREAKS.sub(" ", text)
    if ignore_punctuation:
        text = text.translate(_PUNCT)
    if ignore_spaces:
        text = "".join(text.split())
    elif normalize_whitespace or fold_lines:
        text = " ".join(text.split())
    else:
        text = text.strip()
    return text or None


def _fold(value: Any) -> Unparsed:
    return Unparsed(normalize_text(value) or "")


def parse_number(value: Any) -> float | Unparsed | None:
    """Read ``1234.5``, ``"1,234.50"``, ``"1.234,50"``, ``"(12.00)"``, ``"-5"``, ``"€ 1.234,50"``.

    With both separators present the last one is the decimal mark. With one kind only, several
    occurrences are thousands groups; a single one is decimal unless it is a comma followed by
    exactly three digits (``"1,234"`` is 1234, ``"1.234"`` is 1.234: the English reading).
    """
    if isinstance(value, str):
        text = value.strip() if value.isascii() else unicodedata.normalize("NFKC", value).strip()
        if not text:
            return None
    elif is_empty(value):
        return None
    elif isinstance(value, int | float):  # bool included: True is 1.0
        return float(value)
    else:
        text = unicodedata.normalize("NFKC", str(value)).strip()
    if _SCIENTIFIC.match(text):
        return float(text)
    negative = False
    if text[0] == "(" and text[-1] == ")":
        negative, text = True, text[1:-1]
    text = _NOISE.sub("", text.replace("−", "-").replace("–", "-"))
    if text.endswith("-"):
        negative, text = not negative, text[:-1]
    if text.startswith("-"):
        negative, text = not negative, text[1:]
    elif text.startswith("+"):
        text = text[1:]
    commas, dots = text.count(","), text.count(".")
    if commas and dots:
        decimal = "," if text.rfind(",") > text.rfind(".") else "."
    elif commas:
        head, _, tail = text.rpartition(",")
        decimal = "," if commas == 1 and len(tail) != 3 else ""
        if commas == 1 and len(tail) == 3 and head in {"", "0"}:
            decimal = ","
    elif dots:
        decimal = "." if dots == 1 else ""
    else:
        decimal = ""
    thousands = {",": ".", ".": ","}.get(decimal, ",." if decimal == "" else "")
    for sep in thousands:
        text = text.replace(sep, "")
    if decimal == ",":
        text = text.replace(",", ".")
    if not _NUMBER.match(text):
        return _fold(value)
    number = float(text)
    return -number if negative else number


def parse_currency(value: Any) -> tuple[float | Unparsed | None, str | None]:
    """An amount and an ISO currency code (``None`` when the value names none)."""
    if is_empty(value):
        return None, None
    if isinstance(value, dict):
        return parse_number(value.get("amount")), _code(value.get("currency"))
    code = _code(value) if isinstance(value, str) else None
    return parse_number(value), code


def _code(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    for symbol, code in _CURRENCY_SYMBOLS:  # substring tests first: most values have none
        if symbol in value and (symbol not in _WORD_SYMBOLS or _WORD_SYMBOLS[symbol].search(value)):
            return code
    match = _CODE.search(value.upper() if len(value.strip()) == 3 else value)
    return match.group(1) if match else None


_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan", "januar", "jänner", "janvier", "janv"),
            ("february", "feb", "februar", "feber", "février", "févr", "fevrier"),
            ("march", "mar", "märz", "maerz", "mars", "mrz"),
            ("april", "apr", "avril", "avr"),
            ("may", "mai"),
            ("june", "jun", "juni", "juin"),
            ("july", "jul", "juli", "juillet", "juil"),
            ("august", "aug", "août", "aout"),
            ("september", "sep", "sept", "septembre"),
            ("october", "oct", "oktober", "okt", "octobre"),
            ("november", "nov", "novembre"),
            ("december", "dec", "dezember", "dez", "décembre", "déc"),
        ],
        start=1,
    )
    for name in names
}
#: Month names and abbreviations (English, German, French) by number, as dates spell them.
MONTHS = _MONTHS
# The date forms, one definition for this parser and the bulk one
# (:mod:`fieldwise.compare.score._vectorized` runs them with Arrow's RE2, where ``[^\W\d_]`` is
# an ASCII letter: it reads only ASCII). Groups are named for the bulk parser and numbered
# in order here. ``[Tt ]``: the bulk parser matches before lower-casing.
DATE_ISO = r"^(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})(?:[Tt ].*)?$"
DATE_COMPACT = r"^(?P<y>\d{4})(?P<m>\d{2})(?P<d>\d{2})$"
DATE_NUMERIC = r"^(?P<a>\d{1,2})[-/.](?P<b>\d{1,2})[-/.](?P<y>\d{2}|\d{4})$"
DATE_DAY_NAME = (
    r"^(?P<d>\d{1,2})(?:st|nd|rd|th)?\.?[\s\-/]*(?P<m>[^\W\d_]+)\.?[\s\-/,]*(?P<y>\d{2}|\d{4})$"
)
DATE_NAME_DAY = r"^(?P<m>[^\W\d_]+)\.?\s*(?P<d>\d{1,2})(?:st|nd|rd|th)?,?\s*(?P<y>\d{4})$"
#: Two-digit years below this are 20xx, the others 19xx.
CENTURY_PIVOT = 70
_ISO, _COMPACT, _NUMERIC, _DAY_NAME, _NAME_DAY = (
    re.compile(p) for p in (DATE_ISO, DATE_COMPACT, DATE_NUMERIC, DATE_DAY_NAME, DATE_NAME_DAY)
)


def parse_date(value: Any, *, date_order: str = "YMD") -> str | Unparsed | None:
    """Any common date form to ISO ``YYYY-MM-DD``.

    ``date_order`` resolves ``01/02/2018``: ``"DMY"`` gives 1 February, ``"MDY"`` 2 January;
    ``"YMD"`` (the default) only decides all-two-digit dates, and year-last dates then read as DMY.
    A part above 12 settles the order whatever ``date_order`` says.
    """
    if is_empty(value):
        return None
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    text = str(value)
    text = " ".join((text if text.isascii() else unicodedata.normalize("NFKC", text)).split())
    text = text.casefold()
    parts: tuple[int, int, int] | None = None
    if m := _ISO.match(text) or _COMPACT.match(text):
        parts = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
    elif m := _NUMERIC.match(text):
        a, b, year = int(m.group(1)), int(m.group(2)), m.group(3)
        if len(year) == 2 and date_order == "YMD":
            parts = (_year(m.group(1).zfill(2)), b, int(year))
        elif a > 12 or (b <= 12 and date_order != "MDY"):
            parts = (_year(year), b, a)
        else:
            parts = (_year(year), a, b)
    elif (m := _DAY_NAME.match(text)) and m.group(2) in _MONTHS:
        parts = (_year(m.group(3)), _MONTHS[m.group(2)], int(m.group(1)))
    elif (m := _NAME_DAY.match(text)) and m.group(1) in _MONTHS:
        parts = (_year(m.group(3)), _MONTHS[m.group(1)], int(m.group(2)))
    if parts is None:
        return _fold(value)
    try:
        return dt.date(*parts).isoformat()
    except ValueError:
        return _fold(value)


def _year(text: str) -> int:
    year = int(text)
    if len(text) == 2:
        year += 2000 if year < CENTURY_PIVOT else 1900
    return year


def parse_bool(value: Any) -> bool | Unparsed | None:
    """``yes``/``true``/``1``/``ja``/``x``… and their negations; numbers are true when non-zero."""
    if is_empty(value):
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value != 0
    text = normalize_text(value, ignore_punctuation=True) or ""
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    return _fold(value)
