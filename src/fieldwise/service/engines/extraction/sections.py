"""Sections: a field read only inside the block that a heading opens ("Seller", "Käufer", ...).

Forms print the same labels once per party ("Name:", "Anschrift:" under "Verkäufer" and again
under "Käufer"); a field's ``"section"`` headings say which block is meant. A heading is a
line whose first cell starts with one of the headings (so "Käufer/Leistungsempfänger" opens a
"Käufer" block) and is not much longer than it. The block runs from the heading line down to
the next heading of any field's section, a wide vertical gap, or :data:`MAX_LINES` lines.
"""

from __future__ import annotations

from collections.abc import Iterable

from fieldwise.service.engines.extraction.labels import norm
from fieldwise.service.engines.parsing import Line, ParsedDocument, split_cells

__all__ = ["MAX_LINES", "section_lines"]

MAX_LINES = 10
_EXTRA_CHARS = 24  # a heading cell may carry a little more ("Käufer/Leistungsempfänger")
_GAP_LINES = 3.0


def _heads(line: Line, cues: list[str]) -> bool:
    cells = split_cells(line)
    if not cells:
        return False
    first = norm(" ".join(w.text for w in cells[0]))
    return any(first.startswith(cue) and len(first) <= len(cue) + _EXTRA_CHARS for cue in cues)


def section_lines(
    doc: ParsedDocument, headings: Iterable[str], all_headings: Iterable[str]
) -> set[tuple[int, int]]:
    """(page, line) of every line inside a block opened by one of ``headings``.

    ``all_headings`` are the headings of every field: any of them closes an open block.
    """
    own = [n for n in (norm(h) for h in headings) if n]
    stops = [n for n in (norm(h) for h in all_headings) if n and n not in own]
    inside: set[tuple[int, int]] = set()
    for p, page in enumerate(doc.pages):
        lines = page.lines
        for start, line in enumerate(lines):
            if not _heads(line, own):
                continue
            inside.add((p, start))
            previous = line
            for index in range(start + 1, min(len(lines), start + 1 + MAX_LINES)):
                below = lines[index]
                gap = below.box.y0 - previous.box.y1
                if _heads(below, own) or _heads(below, stops):
                    break
                if gap > _GAP_LINES * max(previous.box.height, 1.0):
                    break
                inside.add((p, index))
                previous = below
    return inside
