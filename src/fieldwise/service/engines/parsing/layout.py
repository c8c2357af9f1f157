"""Geometry shared by every format: words to lines, lines to cells, and the text grid.

The text grid lays out structured formats (DOCX, HTML, text, CSV) as if printed in a monospace
font, so the extraction engine reads every format through the same words-with-boxes model.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from statistics import median

from fieldwise.service.engines.parsing.model import (
    GRID_CHAR_WIDTH,
    GRID_LINE_HEIGHT,
    Box,
    Line,
    Word,
)

__all__ = ["grid_line", "group_lines", "split_cells"]


def make_line(words: Sequence[Word]) -> Line:
    """A line from words already on one row (sorted left to right here)."""
    ordered = sorted(words, key=lambda w: w.box.x0)
    boxes = [w.box for w in ordered]
    box = Box(
        min(b.x0 for b in boxes),
        min(b.y0 for b in boxes),
        max(b.x1 for b in boxes),
        max(b.y1 for b in boxes),
    )
    return Line(words=tuple(ordered), box=box, text=" ".join(w.text for w in ordered))


def group_lines(words: Iterable[Word]) -> tuple[Line, ...]:
    """Group words into rows by vertical overlap, top to bottom, each row left to right.

    A word joins a row when its vertical centre lies within the row's extent; rows are then
    ordered by their top edge so the reading order does not depend on the producer's order.
    """
    rows: list[list[Word]] = []
    extents: list[tuple[float, float]] = []
    keyed = sorted(((w.box.cy, w.box.x0, i, w) for i, w in enumerate(words)))
    for cy, _x0, _i, word in keyed:
        box = word.box
        for i in range(len(rows) - 1, max(-1, len(rows) - 4), -1):
            top, bottom = extents[i]
            if top <= cy <= bottom:
                rows[i].append(word)
                extents[i] = (min(top, box.y0), max(bottom, box.y1))
                break
        else:
            rows.append([word])
            extents.append((box.y0, box.y1))
    lines = [make_line(row) for row in rows if row]
    return tuple(sorted(lines, key=lambda line: (line.box.y0, line.box.x0)))


def split_cells(line: Line, gap_factor: float = 1.2) -> list[tuple[Word, ...]]:
    """Split a line into cells where the horizontal gap is wider than ``gap_factor`` x height.

    A normal space is about a third of the text height; columns of a form or table are
    separated by much more.
    """
    if not line.words:
        return []
    height = median(w.box.height for w in line.words) or 1.0
    cells: list[list[Word]] = [[line.words[0]]]
    for prev, word in zip(line.words, line.words[1:], strict=False):
        if word.box.x0 - prev.box.x1 > gap_factor * height:
            cells.append([word])
        else:
            cells[-1].append(word)
    return [tuple(c) for c in cells]


def grid_line(cells: Sequence[tuple[int, str]], row: int) -> Line | None:
    """A line of the text grid: ``cells`` are (column in characters, text) on grid row ``row``."""
    words: list[Word] = []
    top = row * GRID_LINE_HEIGHT
    for col, text in cells:
        offset = col
        for token in text.split(" "):
            if token:
                x0 = offset * GRID_CHAR_WIDTH
                words.append(
                    Word(
                        token,
                        Box(
                            x0, top, x0 + len(token) * GRID_CHAR_WIDTH, top + GRID_LINE_HEIGHT * 0.8
                        ),
                    )
                )
            offset += len(token) + 1
    return make_line(words) if words else None
