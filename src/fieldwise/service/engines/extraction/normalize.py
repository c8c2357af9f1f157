"""Typed value parsers: amounts, dates, booleans, enums and patterned strings.

Each parser finds the first value of its type in a snippet and returns it normalized together
with ``exact``: whether the value covers the whole snippet (stray text around a value is weaker
evidence, which the engine turns into lower confidence).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from rapidfuzz import fuzz

from fieldwise.service.engines.extraction.months import month_number
from fieldwise.service.engines.extraction.patterns import FieldPattern
from fieldwise.service.engines.extraction.vocabulary import CURRENCY_CODES, CURRENCY_SYMBOLS

__all__ = [
    "Parsed",
    "parse_amount",
    "parse_bool",
    "parse_date",
    "parse_enum",
    "parse_percent",
    "parse_string",
]

# longest marks first, so "R$" is not read as "$"; a mark or code made of letters must not
# sit inside a word ("FORM 12"), but may touch its number ("EUR200.00", "RM29.30"). One
# lookaround pair for all of them keeps the alternation cheap.
_LETTER_MARKS = sorted(
    {m for m in CURRENCY_SYMBOLS if m[0].isalpha()} | set(CURRENCY_CODES), key=len, reverse=True
)
_OTHER_MARKS = sorted((m for m in CURRENCY_SYMBOLS if not m[0].isalpha()), key=len, reverse=True)
_CUR = (
    "(?:"
    + "|".join(re.escape(m) for m in _OTHER_MARKS)
    + r"|(?<![^\W\d_])(?:"
    + "|".join(re.escape(m) for m in _LETTER_MARKS)
    + r")(?![^\W\d_]))"
)
_AMOUNT = re.compile(
    rf"(?P<neg>[-−(])?\s?(?P<cur1>{_CUR})?\s?(?P<neg2>[-−])?"
    r"(?<![\d.,])(?P<num>\d{1,3}(?: \d{3})+[.,]\d{1,2}"
    r"|\d{1,3}(?:[.,'’\u00a0\u202f]\d{3})+(?:[.,]\d{1,4})?|\d+(?:[.,]\d{1,4})?)"
    rf"(?![.,]?\d)(?:\s?(?P<cur2>{_CUR}))?(?P<pct>\s?%)?"
)
# more bare digits than any printed amount has without a separator: an identifier
_IDENTIFIER_DIGITS = 10
_MONTH = r"(?P<mon>[^\W\d_]{3,10})\.?"
# a year glued to an OCR'd time ("14/02/20199:41AM", "18/03/1815: 17") still ends the date;
# a glued four-digit year must look like one (19xx, 20xx), else the two digits are the year
_YEAR_END = r"(?:(?!\d)|(?=\d{1,2}\s?:\s?\d{2})|(?=\d{1,2}\.\d{2}\s?:))"
_DATES = [
    re.compile(r"(?<!\d)(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})(?!\d)"),
    # both separators alike: "02-12/48" is a code, not a date
    re.compile(
        rf"(?<!\d)(?P<a>\d{{1,2}})(?P<sep>[./-])(?P<b>\d{{1,2}})(?P=sep)(?P<y>(?:19|20)\d{{2}}{_YEAR_END}|\d{{2}}{_YEAR_END})"
    ),
    # "3. Mai 2024", "12 maart 2019", "4 de julio de 2021"
    re.compile(
        rf"(?<!\d)(?P<d>\d{{1,2}})\.?\s+(?:de\s+)?{_MONTH}\s+(?:de\s+)?(?P<y>\d{{4}})(?!\d)"
    ),
    # "May 4, 2019" and OCR's "May 4 , 2019"
    re.compile(rf"{_MONTH}\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s*,?\s+(?P<y>\d{{4}})(?!\d)"),
]
# "lenient_dates": hyphens or no space around a month name ("28-Sep-2025", OCR's "16May2026",
# "March1,2025", "13 Sep, 2022"); kept apart so configs without the key read dates as before
_LENIENT_DATES = [
    # a year glued to a time ("12Mar201818: 19", "25/Feb/201707: 43") still ends the date
    re.compile(
        rf"(?<!\d)(?P<d>\d{{1,2}})(?:[-./]|\s*){_MONTH}(?:[-,./]\s*|\s*)"
        rf"(?P<y>(?:19|20)\d{{2}}{_YEAR_END}|\d{{4}}(?!\d)|\d{{2}}(?!\d))"
    ),
    re.compile(rf"{_MONTH}(?:-|\s*)(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s*(?P<y>\d{{4}})(?!\d)"),
]
# "lenient_dates", read only when nothing else in the snippet is a date: a day and month whose
# separator OCR dropped before a four-digit year ("2703/2018"); the year must look like one
_GLUED_DAY_MONTH = re.compile(
    r"(?<![\d/.-])(?P<a>\d{2})(?P<b>\d{2})/(?P<y>(?:19|20)\d{2})(?![\d/])"
)
_TRUE = {"yes", "true", "y", "x", "✓", "✔", "ja", "paid", "bezahlt", "1", "on"}
_FALSE = {"no", "false", "n", "nein", "unpaid", "open", "offen", "0", "off", "due"}
_JUNK = " \t:#-–|"


@dataclass(frozen=True)
class Parsed:
    """A normalized value, the text it came from, and whether it was the whole snippet."""

    value: str | float | bool
    text: str
    exact: bool
    currency: str | None = None


def _exact(snippet: str, start: int, end: int) -> bool:
    rest = snippet[:start].strip(_JUNK) + snippet[end:].strip(_JUNK + ".,;)")
    return not rest


def _number(num: str) -> float:
    cleaned = re.sub(r"[’' \u00a0\u202f]", "", num)
    dot, comma = cleaned.rfind("."), cleaned.rfind(",")
    if dot >= 0 and comma >= 0:
        decimal = "." if dot > comma else ","
    elif dot >= 0 or comma >= 0:
        sep = "." if dot >= 0 else ","
        head, _, tail = cleaned.rpartition(sep)
        # one separator followed by exactly three digits reads as thousands ("1.234", "1,234")
        thousands = cleaned.count(sep) > 1 or (len(tail) == 3 and head not in ("0", "-0"))
        decimal = "" if thousands else sep
    else:
        decimal = ""
    if decimal:
        whole, _, frac = cleaned.rpartition(decimal)
        return float(re.sub(r"[.,]", "", whole) + "." + frac)
    return float(re.sub(r"[.,]", "", cleaned))


def parse_amount(snippet: str) -> Parsed | None:
    """The first amount: "1,234.50", "1.234,50", "€1,234.50", "-8,79", "(12.00)", "12 EUR".

    Percentages are skipped. ``currency`` is the ISO code when a symbol or code is attached.
    """
    for match in _AMOUNT.finditer(snippet):
        if match.group("pct"):
            continue
        before = snippet[match.start("num") - 1] if match.start("num") > 0 else " "
        if before.isalpha() and not match.group("cur1"):
            continue  # part of an identifier such as "AT774262636", not an amount
        if match.group("num").isdigit() and len(match.group("num")) > _IDENTIFIER_DIGITS:
            continue  # a long run of bare digits is a company, tax or account number
        value = _number(match.group("num"))
        if match.group("neg") or match.group("neg2"):
            value = -value
        symbol = match.group("cur1") or match.group("cur2")
        currency = CURRENCY_SYMBOLS.get(symbol, symbol) if symbol else None
        text = match.group(0).strip()
        return Parsed(value, text, _exact(snippet, match.start(), match.end()), currency)
    return None


_PERCENT = re.compile(r"(?<![\d.,])(\d{1,3}(?:[.,]\d{1,4})?)\s?%")


def parse_percent(snippet: str) -> Parsed | None:
    """The first percentage, as its number: "19 %" and "19,0%" are 19.0, "(0%)" is 0.0."""
    match = _PERCENT.search(snippet)
    if match is None:
        return None
    value = float(match.group(1).replace(",", "."))
    return Parsed(value, match.group(0), _exact(snippet, match.start(), match.end()))


def _year(text: str) -> int:
    year = int(text)
    return year + (2000 if year < 70 else 1900) if len(text) == 2 else year


def parse_date(snippet: str, order: str = "DMY", *, lenient: bool = False) -> Parsed | None:
    """The first valid date as ISO ``YYYY-MM-DD``; ``order`` reads ambiguous ``01/02/2024``.

    With ``MDY`` the first number of a day/month pair is the month; with DMY or YMD the day.
    ``lenient`` also reads month names joined by hyphens or without spaces ("28-Sep-2025").
    """
    best: tuple[int, Parsed] | None = None
    patterns = [*_DATES, *_LENIENT_DATES] if lenient else _DATES
    for index, pattern in enumerate(patterns):
        for match in pattern.finditer(snippet):
            groups = match.groupdict()
            ambiguous = False
            try:
                if index == 1:
                    a, b = int(groups["a"]), int(groups["b"])
                    month, day = (a, b) if order == "MDY" else (b, a)
                    if month > 12 >= day:
                        month, day = day, month
                    date = dt.date(_year(groups["y"]), month, day)
                    # both readings valid and the separator is not the DMY-only dot: only
                    # date_order decided, which is weaker evidence
                    ambiguous = a != b and a <= 12 and b <= 12 and "." not in match.group(0)
                elif index == 0:
                    date = dt.date(int(groups["y"]), int(groups["m"]), int(groups["d"]))
                else:
                    mon = month_number(groups["mon"])
                    if mon is None:
                        continue
                    date = dt.date(_year(groups["y"]), mon, int(groups["d"]))
            except ValueError:
                continue
            exact = _exact(snippet, match.start(), match.end()) and not ambiguous
            parsed = Parsed(date.isoformat(), match.group(0), exact)
            if best is None or match.start() < best[0]:
                best = (match.start(), parsed)
            break
    if best is None and lenient:
        return _glued_day_month(snippet, order)
    return best[1] if best else None


def _glued_day_month(snippet: str, order: str) -> Parsed | None:
    """A date whose first separator OCR dropped ("2703/2018"), never exact: the weakest reading
    of a snippet, for one where nothing else is a date."""
    for match in _GLUED_DAY_MONTH.finditer(snippet):
        a, b = int(match.group("a")), int(match.group("b"))
        month, day = (a, b) if order == "MDY" else (b, a)
        try:
            date = dt.date(int(match.group("y")), month, day)
        except ValueError:
            continue
        return Parsed(date.isoformat(), match.group(0), False)
    return None


def parse_bool(snippet: str) -> Parsed | None:
    """yes/no, true/false, paid/unpaid, ja/nein, a check mark."""
    for token in re.findall(r"[\w✓✔]+", snippet.lower()):
        if token in _TRUE or token in _FALSE:
            return Parsed(token in _TRUE, token, _exact(snippet.lower(), 0, len(snippet)))
    return None


def parse_enum(snippet: str, values: tuple[str, ...]) -> Parsed | None:
    """One of ``values``: an exact token first, a currency symbol, then a close fuzzy match."""
    tokens = re.findall(r"[\w€$£]+|[€$£]", snippet)
    lowered = {v.lower(): v for v in values}
    for token in tokens:
        value = lowered.get(token.lower()) or lowered.get(
            (CURRENCY_SYMBOLS.get(token) or "").lower()
        )
        if value is not None:
            return Parsed(value, token, len(tokens) == 1)
    for token in tokens:
        for value in values:
            if len(token) >= 4 and fuzz.ratio(token.lower(), value.lower()) >= 90:
                return Parsed(value, token, False)
    return None


def parse_string(snippet: str, pattern: FieldPattern | None) -> Parsed | None:
    """The pattern's first match (its first group if it has one), else the cleaned snippet."""
    if pattern is not None:
        match = pattern.search(snippet)
        if match is None:
            return None
        text = match.group(1) if pattern.groups and match.group(1) else match.group(0)
        return Parsed(text.strip(), text, _exact(snippet, match.start(), match.end()))
    cleaned = snippet.strip(_JUNK).strip()
    return Parsed(cleaned, snippet, True) if cleaned else None
