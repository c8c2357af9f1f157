"""Parse a snippet as a field's type, with a validity factor for confidence."""

from __future__ import annotations

from fieldwise.service.engines.extraction.normalize import (
    Parsed,
    parse_amount,
    parse_bool,
    parse_date,
    parse_enum,
    parse_percent,
    parse_string,
)
from fieldwise.service.engines.extraction.patterns import compiled

__all__ = ["compiled", "parse_typed", "validity"]

# Validated types found alone in their snippet are strong evidence; a value with text around
# it, or free text nothing could validate, is weaker.
_EXACT = 1.0
_INEXACT = 0.85
_UNVALIDATED = 0.92


def parse_typed(
    text: str,
    kind: str,
    *,
    date_order: str,
    pattern: str | None = None,
    values: tuple[str, ...] = (),
    lenient_dates: bool = False,
    percent: bool = False,
) -> Parsed | None:
    """The first value of ``kind`` in ``text`` (and matching ``pattern`` when given)."""
    parsed: Parsed | None
    if percent:
        parsed = parse_percent(text)
    elif kind in ("currency", "number"):
        parsed = parse_amount(text)
    elif kind == "date":
        parsed = parse_date(text, date_order, lenient=lenient_dates)
    elif kind == "boolean":
        parsed = parse_bool(text)
    elif kind == "enum":
        parsed = parse_enum(text, values)
    else:
        return parse_string(text, compiled(pattern))
    regex = compiled(pattern)
    if parsed is not None and regex is not None and not regex.search(parsed.text):
        return None
    return parsed


def validity(parsed: Parsed, kind: str, pattern: str | None) -> float:
    """How much the parse itself supports the value (1.0 = validated and alone)."""
    if kind == "string" and pattern is None:
        return _UNVALIDATED
    return _EXACT if parsed.exact else _INEXACT
