"""Dates beyond their own digits: the order a document writes them in, and dates that are part
of a code.

``"date_order": "auto"``: a numeric date such as 23/05/2025 can only be day-first, 05/23/2025
only month-first. The document's unambiguous numeric dates vote; the majority decides how
05/11/2026 reads in the same document. Without a majority, :mod:`.order` decides (the issue
date not after the due date, else DMY), and such dates keep the lower confidence of an
ambiguous reading.

:func:`in_code`: an article or batch code such as "HD03-04-06-5/40/160" holds a date-shaped
run of digits; glued to the code's letters and followed by more of its parts, it is no date.
:func:`glued_day_month`: "2703/2018" may be a date whose first slash OCR dropped, or a
document number; like a code, it is the date only when the document has no other.
"""

from __future__ import annotations

import re

from fieldwise.service.engines.parsing import ParsedDocument

__all__ = ["AUTO_FALLBACK", "glued_day_month", "in_code", "voted_date_order"]

AUTO_FALLBACK = "DMY"
_NUMERIC = re.compile(r"(?<!\d)(\d{1,2})[/-](\d{1,2})[/-](?:\d{4}|\d{2})(?!\d)")
_CODE_BEFORE = re.compile(r"[^\W\d_]$")  # a letter right before: "HD03-04-06"
_CODE_AFTER = re.compile(r"^[/-]\d")  # the code goes on: "03-04-06-5/40"
_GLUED = re.compile(r"\d{4}/\d{4}")  # the lenient reading of "2703/2018" (normalize.py)


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


def glued_day_month(date_text: str) -> bool:
    """Whether a date was read from a day and month whose separator OCR dropped ("2703/2018"):
    a document number can have that shape too, so it is taken only when nothing else is."""
    return _GLUED.fullmatch(date_text) is not None


def in_code(line: str, date_text: str) -> bool:
    """Whether the date read as ``date_text`` from ``line`` is a piece of a code: glued to a
    letter before it and followed by another separated number ("HD03-04-06-5/40/160")."""
    at = line.find(date_text)
    if at < 0:
        return False
    before, after = line[:at], line[at + len(date_text) :]
    return bool(_CODE_BEFORE.search(before)) and bool(_CODE_AFTER.match(after))
