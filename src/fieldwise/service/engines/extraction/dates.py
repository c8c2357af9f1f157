"""``"date_order": "auto"``: read a document's ambiguous dates the way its clear ones are written.

A numeric date such as 23/05/2025 can only be day-first, 05/23/2025 only month-first. The
document's unambiguous numeric dates vote; the majority decides how 05/11/2026 reads in the
same document. Without votes (or on a tie) the order falls back to DMY, the engine's default,
and such dates keep the lower confidence of an ambiguous reading.
"""

from __future__ import annotations

import re

from fieldwise.service.engines.parsing import ParsedDocument

__all__ = ["AUTO_FALLBACK", "document_date_order", "voted_date_order"]

AUTO_FALLBACK = "DMY"
_NUMERIC = re.compile(r"(?<!\d)(\d{1,2})[/-](\d{1,2})[/-](?:\d{4}|\d{2})(?!\d)")


def document_date_order(doc: ParsedDocument, order: str) -> str:
    """``order`` itself unless it is "auto"; then DMY or MDY as the document's dates show."""
    if order != "auto":
        return order
    return voted_date_order(doc) or AUTO_FALLBACK


def voted_date_order(doc: ParsedDocument) -> str | None:
    """DMY or MDY as the document's unambiguous numeric dates vote; None without a majority."""
    day_first = month_first = 0
    for page in doc.pages:
        for line in page.lines:
            for a, b in _NUMERIC.findall(line.text):
                first, second = int(a), int(b)
                if first > 12 >= second >= 1:
                    day_first += 1
                elif second > 12 >= first >= 1:
                    month_first += 1
    if month_first > day_first:
        return "MDY"
    if day_first > month_first:
        return "DMY"
    return None
