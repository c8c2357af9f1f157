"""The recipient's block by its place on page 1: the buyer of a letter-form invoice.

Letter-form invoices (DIN 5008 and its kin elsewhere) print the recipient's address in a
window near the top left of page 1 and introduce it with no cue. What finds the window is the
**sender line** printed just above it in small type: one line of the seller's name and address
joined by separators ("Muster GmbH · Hafenweg 1 · 20095 Hamburg"); the block is the tight run
of lines under it in its column. (A block found by the shape of an address alone, without a
sender line, was tried and left out: on unseen layouts it read more wrong names than right
ones, see benchmarks/README.md.)

The block's first line that is not a salutation ("Herrn", "Firma", "Madame", "Attn") is the
buyer's name; a leading "Firma" is dropped. A block whose name the caller excludes (the
seller's) is passed over.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from statistics import median

from fieldwise.service.engines.extraction.labels import norm
from fieldwise.service.engines.parsing import Line, Page, split_cells

__all__ = ["recipient_name"]

_TOP = 0.45  # the window lies in the top of page 1
_SMALL = 0.9  # a sender line's type is smaller than the page's usual one
_GAP = 2.5  # a gap of this many line heights ends a block
_ALIGN = 15.0  # points: the block's lines start in the sender line's column
_MAX_LINES = 6
_SEPARATORS = re.compile(r"\s[·•|–-]\s|,\s")
_POSTCODE = re.compile(
    r"^(?:[A-Z]{1,2}[- ]?)?\d{4,5}\s+\S|\b\d{4,5}\s+[A-ZÄÖÜ]|\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b"
)
_SALUTATIONS = frozenset(
    norm(w)
    for w in (
        "Herrn", "Herr", "Frau", "Firma", "An", "An die", "An den", "z. Hd.", "zu Händen",
        "Mr", "Mrs", "Ms", "Attn", "Attention", "To", "Monsieur", "Madame", "M.", "Mme",
        "À l'attention de", "Société", "Dhr.", "Mevr.", "Sig.", "Spett.le", "Sr.", "Sra.",
    )
)  # fmt: skip
_COMPANY = re.compile(r"^(?:Firma|Société|Spett\.le)\s+", re.IGNORECASE)


def _usual_height(page: Page) -> float:
    return float(median(line.box.height for line in page.lines)) if page.lines else 1.0


def _sender_line(page: Page, usual: float) -> int | None:
    """Index of the sender line in the top of the page, if there is one."""
    for index, line in enumerate(page.lines):
        if line.box.y0 > _TOP * page.height:
            break
        parts = [p for p in _SEPARATORS.split(line.text) if p.strip()]
        if len(parts) < 3 or line.box.height >= _SMALL * usual:
            continue
        if any(_POSTCODE.search(p.strip()) for p in parts[1:]):
            return index
    return None


def _block(lines: Sequence[Line], start: int, x0: float, align: float) -> list[Line]:
    """The tight run of lines from ``start`` that begin at ``x0``."""
    block: list[Line] = []
    for line in lines[start : start + _MAX_LINES]:
        if block and line.box.y0 - block[-1].box.y1 > _GAP * max(block[-1].box.height, 1.0):
            break
        if abs(line.box.x0 - x0) > align:
            if block:
                break
            continue
        block.append(line)
    return block


def _first_cell(line: Line) -> str:
    """The text of a line's first cell: a window block shares its rows with the right-hand
    column (number, date) in the same lines."""
    return " ".join(w.text for w in split_cells(line)[0]).strip()


def _name(block: Sequence[Line]) -> str | None:
    for line in block:
        text = _first_cell(line)
        if norm(text) in _SALUTATIONS or not any(ch.isalpha() for ch in text):
            continue
        if len(_SEPARATORS.split(text)) >= 3:
            continue  # a sender line (name, street and city joined) is not the recipient
        return _COMPANY.sub("", text) or None
    return None


def recipient_name(pages: Sequence[Page], exclude: Sequence[str] = ()) -> tuple[str, int] | None:
    """The buyer's name from page 1's recipient block and the line it was read on, or None."""
    if not pages or not pages[0].lines:
        return None
    page = pages[0]
    usual = _usual_height(page)
    excluded = {norm(text) for text in exclude}
    sender = _sender_line(page, usual)
    if sender is None:
        return None
    block = _block(page.lines, sender + 1, page.lines[sender].box.x0, _ALIGN)
    name = _name(block) if block else None
    if name is None or norm(name) in excluded:
        return None
    return name, page.lines.index(block[0])
