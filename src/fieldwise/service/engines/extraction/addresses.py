"""``"strategy": "address"``: the seller's postal address, all its lines as one value.

The address of a letterhead or a receipt header is printed in the lines under the sender's
name (found as the seller strategy finds it). Lines are taken from there down: registration
numbers printed between name and address ("(1095514-X)", "Company No: ...") are skipped, and
the block ends at a line of contact details or document data ("Tel", "Fax", "GST", "Invoice",
"Date", an e-mail or web address), at a line that holds a date or a time of day (a receipt's
"12Mar2018 18:19" is never part of an address), at a wide gap, after :data:`MAX_LINES`
lines, or after the line that carries the postcode plus one short line of letters (a state or
country).
Lines are joined with ", " (the way an address is written on one line); the comparator folds
the rest of the spacing.

Confidence: the seller's times 0.9, lower (x 0.7) when no line carried a postcode.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from fieldwise.service.engines.extraction.candidate import Candidate
from fieldwise.service.engines.extraction.config import ExtractionConfig, FieldSpec
from fieldwise.service.engines.extraction.labels import norm
from fieldwise.service.engines.extraction.normalize import Parsed, parse_date
from fieldwise.service.engines.extraction.parties import party
from fieldwise.service.engines.parsing import Line, ParsedDocument

__all__ = ["MAX_LINES", "address"]

MAX_LINES = 5
_STOP = re.compile(
    r"(?i)\b(?:tel|telephone|phone|fax|hp|mobile|e-?mail|gst|vat|tax|reg|invoice|receipt|"
    r"date|cashier|table|www|http|ust|steuer)\b|@"
)
_REGISTRATION = re.compile(r"(?i)^\(.*\)$|\d{5,}-?[a-z]\b|company\s*no|co\.?\s*no|gst|reg")
_SKIPS = 2  # registration lines between the name and the address
_POSTCODE = re.compile(r"(?<!\d)\d{4,6}(?!\d)")
# a time of day ("18:19", OCR's "18: 19", "9.41AM"): no address line carries one
_TIME = re.compile(r"(?i)\d{1,2}\s?:\s?\d{2}(?!\d)|\d{1,2}[.:]\d{2}\s?[ap]\.?m\b")
_GAP = 2.0


def _name_line(lines: tuple[Line, ...], name: str) -> int | None:
    """Index of the last line that holds part of ``name`` (names may span two lines)."""
    target = norm(name)
    found = None
    for index, line in enumerate(lines):
        text = norm(line.text)
        if text and (text in target or target in text):
            found = index
        elif found is not None:
            break
    return found


def _is_date_line(text: str) -> bool:
    return bool(_TIME.search(text)) or any(
        parse_date(text, order, lenient=True) is not None for order in ("DMY", "MDY")
    )


def address(doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig) -> Candidate | None:
    """The seller's address lines under its name, joined."""
    seller = party(doc, replace(spec, strategy="seller"), config)
    if seller is None or not isinstance(seller.parsed.value, str):
        return None
    lines = doc.pages[seller.page].lines
    start = _name_line(lines, seller.parsed.value)
    if start is None:
        return None
    taken: list[Line] = []
    postcode = False
    skipped = 0
    for line in lines[start + 1 : start + 1 + MAX_LINES + _SKIPS]:
        text = unicodedata.normalize("NFKC", line.text).strip()
        previous = taken[-1] if taken else lines[start]
        if line.box.y0 - previous.box.y1 > _GAP * max(previous.box.height, 1.0):
            break
        if not taken and skipped < _SKIPS and _REGISTRATION.search(text):
            skipped += 1
            continue
        if _STOP.search(text) or _is_date_line(text):
            break
        if postcode and (any(ch.isdigit() for ch in text) or len(text) > 20):
            break
        taken.append(line)
        if postcode or len(taken) >= MAX_LINES:
            break
        postcode = postcode or _POSTCODE.search(text) is not None
    if not taken:
        return None
    value = ", ".join(line.text.strip().rstrip(",") for line in taken)
    confidence = seller.confidence * 0.9 * (1.0 if postcode else 0.7)
    confidence *= min(line.confidence for line in taken)
    return Candidate(Parsed(value, value, True), confidence, seller.page, value)
