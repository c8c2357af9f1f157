"""A name printed over two lines beside its label: the lines above it that begin it.

Forms print a long party name as a block of lines in the value column, the label beside one of
them ("Name:" next to the second line of "MVM Musterhafter / Versicherungsverein Musterstadt
a.G."). Reading only the label's line cuts the name. A line above begins the value when it is
one cell starting where the value starts (the same column), set tight against it (no blank
line between), and carries no label of its own (no colon) and nothing in the label's column.
Lines below are not taken: under a name, the same column holds its street and city. Only
free-text fields (strings without a pattern) are continued: a patterned value is whole on its
line.
"""

from __future__ import annotations

from fieldwise.service.engines.extraction.locate import Snippet
from fieldwise.service.engines.parsing import Line, ParsedDocument, split_cells

__all__ = ["continued"]

_ALIGN = 2.0  # points: the same column
_TIGHT = 0.6  # a gap under this share of a line's height: the same block
_MAX = 2  # lines added above


def _continues(line: Line, x0: float, next_to: Line) -> bool:
    cells = split_cells(line)
    if len(cells) != 1 or ":" in line.text:
        return False
    if abs(cells[0][0].box.x0 - x0) > _ALIGN:
        return False
    top, bottom = sorted((line, next_to), key=lambda li: li.box.y0)
    return bottom.box.y0 - top.box.y1 < _TIGHT * max(line.box.height, 1.0)


def continued(doc: ParsedDocument, snippet: Snippet, line_index: int) -> Snippet:
    """``snippet`` (read on line ``line_index`` of its page) with the lines above that begin
    it, in reading order; unchanged when none does."""
    if not snippet.words or snippet.where not in ("same-cell", "next-cell"):
        return snippet
    lines = doc.pages[snippet.page].lines
    x0 = snippet.words[0].box.x0
    above: list[str] = []
    for index in range(line_index - 1, max(line_index - 1 - _MAX, -1), -1):
        if not _continues(lines[index], x0, lines[index + 1]):
            break
        above.insert(0, lines[index].text.strip())
    if not above:
        return snippet
    text = "\n".join([*above, snippet.text])
    return Snippet(text, snippet.words, snippet.page, snippet.where, snippet.label_cell)
