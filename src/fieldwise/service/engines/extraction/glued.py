"""Labels glued to their values: "Rechnungsnummer:471102" read as one word.

HTML-to-PDF renderers lay a form's label and value out in adjacent boxes; when the label fills
its box the value starts right after its colon, and the text layer carries no space between
them, so the parser reads one word. Labels match whole words (:mod:`.labels`), so such a label
is never found, and a weaker one elsewhere on the page gives a wrong value. Before extraction,
a word of letters ending in a colon followed by more text is split after the colon, each part
keeping its share of the word's box. Times ("10:35"), URLs ("https://...") and ratios keep
their colons: the part before the colon must end in a letter (or an abbreviation's dot) and
the part after must not start with "/".
"""

from __future__ import annotations

import re
from dataclasses import replace

from fieldwise.service.engines.parsing import Box, Line, ParsedDocument, Word

__all__ = ["unglue"]

_GLUED = re.compile(r"^([^\W\d_](?:[\w.\-/]*[^\W\d_])?\.?:)([^\s/:].*)$")


def _split(word: Word) -> tuple[Word, ...]:
    match = _GLUED.match(word.text)
    if match is None:
        return (word,)
    label, value = match.group(1), match.group(2)
    box = word.box
    cut = box.x0 + box.width * len(label) / len(word.text)
    return (
        Word(label, Box(box.x0, box.y0, cut, box.y1), word.confidence),
        Word(value, Box(cut, box.y0, box.x1, box.y1), word.confidence),
    )


def _line(line: Line) -> Line:
    words = tuple(part for word in line.words for part in _split(word))
    if len(words) == len(line.words):
        return line
    return Line(words, line.box, " ".join(w.text for w in words))


def unglue(doc: ParsedDocument) -> ParsedDocument:
    """``doc`` with every glued "label:value" word split in two (the same object when none)."""
    pages = []
    changed = False
    for page in doc.pages:
        lines = tuple(_line(line) for line in page.lines)
        if any(new is not old for new, old in zip(lines, page.lines, strict=True)):
            changed = True
            page = replace(page, lines=lines)
        pages.append(page)
    return replace(doc, pages=tuple(pages)) if changed else doc
