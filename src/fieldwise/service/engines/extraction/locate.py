"""Where a value sits relative to its label: right in the same cell, the next cell, or below."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fieldwise.service.engines.extraction.labels import LabelHit
from fieldwise.service.engines.extraction.vocabulary import CURRENCY_CODES, CURRENCY_SYMBOLS
from fieldwise.service.engines.parsing import Box, ParsedDocument, Word, split_cells

__all__ = ["Snippet", "value_snippets"]

# How much a position counts as evidence: the words just after a label are the classic
# "Label: value"; a separate column is nearly as good; the line below is a weaker guess.
# A rate printed before its label ("zzgl. 19 % MwSt.") is read only when asked (``before``),
# and so are the cells further along the label's row (``row``: "VAT  1,000.00  19 %  190.00"
# prints the basis, the rate and the tax in one row; an equation, not nearness, picks one).
POSITION_WEIGHT = {
    "same-cell": 1.0,
    "next-cell": 0.97,
    "row": 0.75,
    "below": 0.85,
    "before": 0.8,
    "below-far": 0.7,
}


_ALIGN = 2.0  # points: a value left-aligned under its heading
_SPACE = 0.5  # a gap under this share of the text's height is a word space, not a column's


@dataclass(frozen=True)
class Snippet:
    """Candidate value text near a label, with its words and where it was found."""

    text: str
    words: tuple[Word, ...]
    page: int
    where: str
    label_cell: str = ""
    # the words near the value that are not its label's (see roles.py): the label cell's
    # other words, and on a line below, the label that line has of its own
    context: str = ""
    # the same, but of the words before the label only those of its own phrase: in a cell
    # of several label-value pairs ("Kunden-Nr. 4711 Rechnungs-Nr. 2291") the earlier pairs
    # are not this label's (identifiers.py reads these)
    near: str = ""

    @property
    def weight(self) -> float:
        return POSITION_WEIGHT[self.where]

    @property
    def ocr_confidence(self) -> float:
        return min((w.confidence for w in self.words), default=1.0)


def _box(words: Sequence[Word]) -> Box:
    box = words[0].box
    for w in words[1:]:
        box = box.union(w.box)
    return box


def _text(words: Sequence[Word]) -> str:
    return " ".join(w.text for w in words)


def _snippet(
    words: Sequence[Word],
    page: int,
    where: str,
    label_cell: str = "",
    context: str = "",
    near: str = "",
) -> Snippet:
    return Snippet(_text(words), tuple(words), page, where, label_cell, context, near)


def _is_value(word: Word) -> bool:
    """A word that is a value rather than a label's: it has a digit, or ends a label (":")."""
    return any(ch.isdigit() for ch in word.text) or word.text.endswith(":")


def _phrase_before(words: Sequence[Word]) -> Sequence[Word]:
    """The words before a label that belong to its phrase ("Kunden" in "Kunden Nr."): back to
    the last value before it ("Kunden-Nr. 4711 Rechnungs-Nr. 2291": none)."""
    for index in range(len(words) - 1, -1, -1):
        if _is_value(words[index]):
            return words[index + 1 :]
    return words


def _heading(words: Sequence[Word], start: int, end: int) -> list[Word]:
    """The label's words [start, end) with the words set at a word space from them on either
    side: its own heading in a row of headings a narrow gap apart."""
    height = max(words[start].box.height, 1.0)
    first, last = start, end - 1
    while first > 0 and words[first].box.x0 - words[first - 1].box.x1 < _SPACE * height:
        first -= 1
    while last + 1 < len(words) and words[last + 1].box.x0 - words[last].box.x1 < _SPACE * height:
        last += 1
    return list(words[first : last + 1])


def _under(cell: Sequence[Word], heading: Box) -> list[Word]:
    """The words of ``cell`` that begin under ``heading`` (values stand left-aligned or
    centred under their heading; one that begins under the previous heading is its value)."""
    return [w for w in cell if heading.x0 - _ALIGN <= w.box.x0 < heading.x1]


_MARKS = frozenset({*CURRENCY_SYMBOLS, *CURRENCY_CODES})
_MARK_LETTERS = 3


def _next_cell(cells: Sequence[Sequence[Word]], n: int) -> list[Word]:
    """The cell after cell ``n``; a currency mark printed in a column of its own ("TOTAL  RM
    60.31") is read with the cell after it, and so is a mark-sized cell of up to three letters
    (OCR reads "RM" as "RH")."""
    cell = list(cells[n + 1])
    text = _text(cell).strip()
    mark = text in _MARKS or (len(text) <= _MARK_LETTERS and text.isalpha())
    if mark and n + 2 < len(cells):
        cell.extend(cells[n + 2])
    return cell


def value_snippets(
    doc: ParsedDocument,
    hit: LabelHit,
    position: str,
    *,
    before: bool = False,
    row: bool = False,
) -> list[Snippet]:
    """Snippets near ``hit`` allowed by ``position`` ("right", "below" or "any").

    ``before`` also offers the words before the label in its cell, ``row`` the cells after
    the next one in the label's line (both weaker evidence).
    """
    page = doc.pages[hit.page]
    line = page.lines[hit.line]
    out: list[Snippet] = []
    label_box = _box(line.words[hit.start : hit.end])
    cells = split_cells(line)
    label_cell = ""
    others = ""  # the label cell's words the label does not cover
    near = ""  # of those, the ones of the label's own phrase (see Snippet.near)
    index = 0
    merged = False  # the label shares its cell with other labels and values
    for cell in cells:
        if index <= hit.start < index + len(cell):
            label_cell = _text(cell)
            start, end = hit.start - index, hit.end - index
            others = _text([*cell[:start], *cell[end:]])
            near = _text([*_phrase_before(cell[:start]), *cell[end:]])
            around = [*cell[:start], *cell[end:]]
            # an inline run ("Kunden-Nr. 4711 Rechnungs-Nr. 2291") or a header row of labels
            merged = any(_is_value(w) for w in cell[:start]) or (
                bool(around) and not any(_is_value(w) for w in around)
            )
        index += len(cell)
    if position in ("right", "any"):
        index = 0
        for n, cell in enumerate(cells):
            if index <= hit.end - 1 < index + len(cell):
                rest = line.words[hit.end : index + len(cell)]
                if rest:
                    out.append(_snippet(rest, hit.page, "same-cell", "", others, near))
                if n + 1 < len(cells):
                    out.append(
                        _snippet(
                            _next_cell(cells, n), hit.page, "next-cell", label_cell, others, near
                        )
                    )
                if row:
                    out.extend(
                        _snippet(c, hit.page, "row", label_cell, others, near)
                        for c in cells[n + 2 :]
                    )
                if before and hit.start > index:
                    out.append(_snippet(line.words[index : hit.start], hit.page, "before"))
                break
            index += len(cell)
    if position in ("below", "any"):
        height = max(label_box.height, 1.0)
        for offset, below in enumerate(page.lines[hit.line + 1 : hit.line + 4]):
            if below.box.y0 - label_box.y1 > 3.5 * height:
                break
            before_cell: list[Word] = []  # the line's own label, if it has one
            for cell in split_cells(below):
                box = _box(cell)
                overlap = min(box.x1, label_box.x1) - max(box.x0, label_box.x0)
                if overlap > 0:
                    where = "below" if offset == 0 else "below-far"
                    if merged:
                        # a header row of several labels over a row of their values, both
                        # read as one cell each: the value is the words under the label's
                        # own heading, and the heading's other words its context
                        heading = _heading(line.words, hit.start, hit.end)
                        column = _under(cell, _box(heading))
                        if column:
                            words = [w for w in heading if w not in hit.words(doc)]
                            own = _text(words)
                            out.append(_snippet(column, hit.page, where, label_cell, own, own))
                        # the whole row too: a value wider than its heading may not parse
                        # from the words under it (the whole row's is the weaker reading)
                    context = f"{others} {_text(before_cell)}".strip()
                    own = f"{near} {_text(before_cell)}".strip()
                    out.append(_snippet(cell, hit.page, where, label_cell, context, own))
                    break
                before_cell.extend(cell)
            else:
                continue
            break
    return out
