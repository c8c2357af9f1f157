"""Guess each field's type from its ground-truth values (what ``datasets init`` writes).

Rules, first match wins, on the values present (a field may be absent from some documents):
booleans (``true``/``yes``/``ja``/``oui``… as text too) → boolean; text that reads as a date
with a separator or a month name → date; numbers, and text written as an amount (a decimal part
or a currency mark) → currency when a currency mark appears or the name says amount (total,
tax, price…), else number; a few distinct short labels (up to three words, no digits), each seen
about twice → enum; text over lines → text with ``fold_lines``; words → text (fuzzy); anything else
→ string, with ``ignore_spaces`` when spaced values are mostly digits (IBANs, VAT ids).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fieldwise.compare import Unparsed, is_empty, parse_currency, parse_date

__all__ = ["FieldGuess", "infer_fields"]

_BOOL_WORDS = frozenset(
    {"true", "false", "yes", "no", "ja", "nein", "oui", "non", "wahr", "falsch", "y", "n"}
)
_AMOUNT_NAME = re.compile(
    r"total|amount|price|tax|vat|net|gross|sum|cost|fee|balance|paid|betrag|montant|importe|"
    r"summe|preis|prix|steuer|rounding|discount|deposit|subtotal|payable|due|charge|allowance",
    re.IGNORECASE,
)
_NOT_AMOUNT_NAME = re.compile(r"rate|percent|pct|ratio|quantity|qty|count|number|_no$", re.I)
_MARK = r"(?:[^\W\d_]{1,3}\.?[^\w\s.,()+\-−]?|[^\w\s.,()+\-−'’]{1,2})"
_AMOUNT_TEXT = re.compile(
    rf"^\(?[+\-−]?\s*(?P<pre>{_MARK})?\s*(?P<num>\d[\d.,'’\s]*?)\s*(?P<post>{_MARK})?\s*[-−]?\)?$"
)
_DECIMALS = re.compile(r"[.,]\d{1,2}$")
_NUMERIC_DATE = re.compile(r"^(\d{1,2})[./-](\d{1,2})[./-](\d{2}|\d{4})$")
_ENUM_MAX = 10
_ENUM_LENGTH = 30
_ENUM_WORDS = 3  # longer repeated values are names (a regular supplier), not labels


@dataclass(frozen=True)
class FieldGuess:
    """The type guessed for one field (dotted name), its options, and what it was seen with."""

    name: str
    type: str
    count: int
    example: Any
    options: Mapping[str, Any] = field(default_factory=dict)
    columns: tuple[FieldGuess, ...] = ()


def infer_fields(truths: Iterable[Mapping[str, Any]]) -> tuple[list[FieldGuess], str | None]:
    """Guesses for every field of the ground-truth objects, sorted by name, and the date order
    the numeric dates show (``"DMY"``/``"MDY"``; None when they do not tell)."""
    scalars: dict[str, list[Any]] = {}
    arrays: dict[str, list[Mapping[str, Any]]] = {}
    for truth in truths:
        _collect(truth, "", scalars, arrays)
    guesses = [_guess(name, values) for name, values in scalars.items()]
    texts = [v for values in scalars.values() for v in values if isinstance(v, str)]
    for name, rows in arrays.items():
        cells: dict[str, list[Any]] = {}
        for row in rows:
            for column, value in row.items():
                if not isinstance(value, Mapping | list) and not is_empty(value):
                    cells.setdefault(str(column), []).append(value)
                    texts += [value] if isinstance(value, str) else []
        columns = tuple(sorted((_guess(c, v) for c, v in cells.items()), key=lambda g: g.name))
        guesses.append(FieldGuess(name, "array", len(rows), None, {}, columns))
    return sorted(guesses, key=lambda g: g.name), _date_order(texts)


def _collect(
    value: Mapping[str, Any],
    prefix: str,
    scalars: dict[str, list[Any]],
    arrays: dict[str, list[Mapping[str, Any]]],
) -> None:
    for key, item in value.items():
        name = f"{prefix}{key}"
        if isinstance(item, Mapping):
            _collect(item, f"{name}.", scalars, arrays)
        elif isinstance(item, list):
            arrays.setdefault(name, []).extend(r for r in item if isinstance(r, Mapping))
        elif not is_empty(item):
            scalars.setdefault(name, []).append(item)


def _guess(name: str, values: list[Any]) -> FieldGuess:
    kind, options = _kind(name.rsplit(".", 1)[-1], values)
    return FieldGuess(name, kind, len(values), values[0] if values else None, options)


def _kind(leaf: str, values: list[Any]) -> tuple[str, dict[str, Any]]:
    texts = [v for v in values if isinstance(v, str)]
    if values and all(isinstance(v, bool) or _is_bool_word(v) for v in values):
        return "boolean", {}
    if any(isinstance(v, bool) for v in values):
        return "string", {}
    if texts and len(texts) == len(values) and all(_is_date(t) for t in texts):
        return "date", {}
    if values and all(not isinstance(v, str) or _is_amount(v) for v in values):
        marked = any(parse_currency(t)[1] is not None for t in texts)
        named = _AMOUNT_NAME.search(leaf) and not _NOT_AMOUNT_NAME.search(leaf)
        return ("currency" if marked or named else "number"), {}
    if len(texts) < len(values):
        return "string", {}
    distinct = sorted(set(texts))
    if (
        len(texts) >= 4
        and len(distinct) <= min(_ENUM_MAX, len(texts) // 2)
        and all(len(t) <= _ENUM_LENGTH and len(t.split()) <= _ENUM_WORDS for t in distinct)
        and not any(c.isdigit() for t in distinct for c in t)  # codes and ids are no labels
    ):
        return "enum", {"values": distinct}
    if any("\n" in t.strip() for t in texts):
        return "text", {"fold_lines": True}
    letters = sum(c.isalpha() for t in texts for c in t)
    digits = sum(c.isdigit() for t in texts for c in t)
    if letters > digits and sum(len(t.split()) for t in texts) >= 2 * len(texts):
        return "text", {}
    spaced = [t for t in texts if " " in t.strip()]
    if spaced and all(sum(c.isdigit() for c in t) * 2 >= len(t.replace(" ", "")) for t in spaced):
        return "string", {"ignore_spaces": True}
    return "string", {}


def _is_bool_word(value: Any) -> bool:
    return isinstance(value, str) and value.strip().casefold() in _BOOL_WORDS


def _is_date(text: str) -> bool:
    stripped = text.strip()
    return not stripped.isdigit() and not isinstance(parse_date(stripped), Unparsed)


def _is_amount(text: str) -> bool:
    """Text written as an amount: digits with a decimal part or a currency mark around them;
    bare digits and codes glued to signs ("INV-001") are identifiers."""
    match = _AMOUNT_TEXT.match(text.strip())
    if match is None:
        return False
    amount, code = parse_currency(text)
    decimals = _DECIMALS.search(match["num"].strip()) is not None
    return type(amount) is float and (decimals or code is not None)


def _date_order(texts: list[str]) -> str | None:
    day_first = month_first = False
    for text in texts:
        match = _NUMERIC_DATE.match(text.strip())
        if match:
            day_first |= int(match.group(1)) > 12
            month_first |= int(match.group(2)) > 12
    if day_first != month_first:
        return "DMY" if day_first else "MDY"
    return None
