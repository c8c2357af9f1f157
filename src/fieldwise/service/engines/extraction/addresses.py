"""``"strategy": "address"``: the seller's postal address, all its lines as one value.

The address of a letterhead or a receipt header is printed in the lines under the sender's name
(found as the seller strategy finds it). Lines are taken from there down. Before the block
begins, up to :data:`LEAD_LINES` lines that are not yet an address are skipped: a registration
number ("(1095514-X)", "Company No: ..."), a date or time ("12Mar2018 18:19"), and lines without
a digit (the rest of a name, "formerly known as ...", a branch's name), since an address carries
a house number or a postcode, and a branch's name that repeats the name's first word ("Nando's 1
Mont Kiara" under "Nando's Chickenland ..."). The block ends at a line of contact details or
document data ("Tel", "Fax", "GST", "GSTID", "Invoice", "Date", "Total", an e-mail or web
address), at a company registration ("ROC No.", "(1072825-A)"), at a line that holds a date or a
time of day, at a wide gap from the line above, after :data:`MAX_LINES` lines, after a line
ending with a country's name (:mod:`.countries`), or after the line that carries the postcode
plus up to two short lines of letters (city, state or country; only a country when the
postcode's line already named a city and a state: "16200 Palekbang, Kelantan"). A postcode is 4
to 6 digits before a place name, not a lot's or house's number ("LOT 1851-A", "No 2685"). Lines
are joined with ", " (the way an address is written on one line); the comparator folds the rest
of the spacing.

Without a seller's name (a shop's name printed as a logo that OCR did not read, nothing
name-like at the top of the page), the block is read the same way from the first line of page 1
on, and kept only when one of its lines carries a postcode: nothing else says it is an address.

Confidence: the seller's times 0.9, lower (x 0.7) when no line carried a postcode; without a
seller, :data:`_HEADLESS`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from fieldwise.service.engines.extraction.candidate import Candidate
from fieldwise.service.engines.extraction.config import ExtractionConfig, FieldSpec
from fieldwise.service.engines.extraction.countries import ends_with_country
from fieldwise.service.engines.extraction.labels import norm
from fieldwise.service.engines.extraction.normalize import Parsed, parse_date
from fieldwise.service.engines.extraction.parties import party
from fieldwise.service.engines.parsing import Line, ParsedDocument

__all__ = ["MAX_LINES", "address"]

MAX_LINES = 5
LEAD_LINES = 4  # lines between the name and the address that are not part of it
_STOP = re.compile(
    r"(?i)\b(?:tel|telephone|phone|fax|hp|mobile|e-?mail|gst|vat|tax|reg|invoice|receipt|"
    r"date|cashier|table|www|http|ust|steuer|total|subtotal|qty|amount)\b|@"
    # OCR glues words: "GSTID: 0016...", "TAXINVOICE"
    r"|(?i:\bgst\s*(?:id|no|reg)|\btax\s*invoice)"
)
_REGISTRATION = re.compile(r"(?i)^\(.*\)$|\d{5,}-?[a-z]\b|company\s*no|co\.?\s*no|gst|reg")
# a company's registration number ("(1072825-A)", "ROC No.", "Co. Reg."): never an address line
_REGISTERED = re.compile(r"(?i)\d{5,}-[a-z]\b|\broc\b|\bco\.?\s*reg|\bcompany\s*(?:no|reg)")
# 4 to 6 digits before a place name, not glued to a letter, a hyphen or a lot's word
_POSTCODE = re.compile(r"(?<![\w'’./-])\d{4,6}(?![\d/-])\s*,?\s*[^\W\d_]{2}")
_LOT = re.compile(r"(?i)\b(?:lot|no|unit|suite|block|blk|p\.?\s?t)\.?\s*$")
# a postcode followed by two places: "16200 Palekbang, Kelantan"
_PLACES = re.compile(r"(?<![\w'’./-])\d{4,6}(?![\d/-])\s*,?\s*[^\W\d_][^,]*,\s*[^\W\d_]{3,}")
_AFTER_POSTCODE = 2  # short lines of letters after the postcode: city, state, country
# a time of day ("18:19", OCR's "18: 19", "9.41AM"): no address line carries one
_TIME = re.compile(r"(?i)\d{1,2}\s?:\s?\d{2}(?!\d)|\d{1,2}[.:]\d{2}\s?[ap]\.?m\b")
_GAP = 2.0
_NAME_PART = 3  # characters a line needs to count as part of the name
_BRAND = 4  # letters of a name's first word that a branch line repeating it must have
# an address read without a seller's name above it: only its postcode supports it
_HEADLESS = 0.5


def _name_line(lines: tuple[Line, ...], name: str) -> int | None:
    """Index of the last line of the run of lines that holds the most of ``name`` (names may
    span two lines; a logo above may repeat a word of them: "Nando's" over "Nando's
    Chickenland Malaysia / Sdn Bhd")."""
    target = norm(name)
    best: tuple[int, int] | None = None  # (characters of the name held, last line)
    held = 0
    for index, line in enumerate(lines):
        text = norm(line.text)
        if len(text) >= _NAME_PART and (text in target or target in text):
            # a line that holds the name among other words ("Follow: Yam Fresh") counts less
            held += len(text) if text in target else 2 * len(target) - len(text)
            if best is None or held > best[0]:
                best = (held, index)
        else:
            held = 0
    return best[1] if best else None


def _is_date_line(text: str) -> bool:
    return bool(_TIME.search(text)) or any(
        parse_date(text, order, lenient=True) is not None for order in ("DMY", "MDY")
    )


def _has_postcode(text: str) -> bool:
    return any(not _LOT.search(text[: m.start()]) for m in _POSTCODE.finditer(text))


def _lead(text: str) -> bool:
    """Whether a line under the name, before the address, is not yet the address."""
    if _REGISTRATION.search(text) or _is_date_line(text):
        return True
    return not any(ch.isdigit() for ch in text) and _STOP.search(text) is None


def _branch(text: str, name: str) -> bool:
    """Whether a line under the name is a branch's name: it begins with the name's first word
    (a brand of four letters or more: "Nando's 1 Mont Kiara" under "Nando's Chickenland")."""
    head, line = norm(name.split()[0]) if name.split() else "", text.split()
    return len(head) >= _BRAND and bool(line) and norm(line[0]) == head


def _block(lines: tuple[Line, ...], first: int, name: str) -> tuple[list[Line], bool]:
    """The address lines from ``lines[first]`` on, and whether one of them carried a postcode."""
    taken: list[Line] = []
    after_postcode = None  # lines taken since the postcode's
    placed = False  # whether the postcode's line named two places after it
    previous = lines[first - 1] if first > 0 else None
    for line in lines[first : first + MAX_LINES + LEAD_LINES]:
        text = unicodedata.normalize("NFKC", line.text).strip()
        if previous is not None and line.box.y0 - previous.box.y1 > _GAP * max(
            previous.box.height, 1.0
        ):
            break
        previous = line
        if not taken and (_lead(text) or (name and _branch(text, name))):
            continue
        if _STOP.search(text) or _is_date_line(text):
            break
        if after_postcode is not None and (any(ch.isdigit() for ch in text) or len(text) > 20):
            break
        if _REGISTERED.search(text):
            break
        if placed and not ends_with_country(text):
            break  # the postcode's line named its city and its state: only a country follows
        taken.append(line)
        if ends_with_country(text):
            after_postcode = after_postcode or 0  # a country ends an address
            break
        if after_postcode is not None:
            after_postcode += 1
        elif _has_postcode(text):
            after_postcode = 0
            placed = _PLACES.search(text) is not None
        if after_postcode == _AFTER_POSTCODE or len(taken) >= MAX_LINES:
            break
    return taken, after_postcode is not None


def _candidate(taken: list[Line], confidence: float, page: int) -> Candidate:
    value = ", ".join(line.text.strip().rstrip(",") for line in taken)
    confidence *= min(line.confidence for line in taken)
    return Candidate(Parsed(value, value, True), confidence, page, value)


def address(doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig) -> Candidate | None:
    """The seller's address lines under its name, joined; without a seller's name, an address
    block with a postcode that opens the first page."""
    seller = party(doc, replace(spec, strategy="seller"), config)
    if seller is None:
        # the name printed as a logo that OCR did not read: the page opens with the address
        if not doc.pages:
            return None
        taken, postcode = _block(doc.pages[0].lines, 0, "")
        return _candidate(taken, _HEADLESS, 0) if taken and postcode else None
    if not isinstance(seller.parsed.value, str):
        return None
    lines = doc.pages[seller.page].lines
    start = _name_line(lines, seller.parsed.value)
    if start is None:
        return None
    taken, postcode = _block(lines, start + 1, seller.parsed.value)
    if not taken:
        return None
    confidence = seller.confidence * 0.9 * (1.0 if postcode else 0.7)
    return _candidate(taken, confidence, seller.page)
