"""Lay structured content (headings, paragraphs, tables, raw text lines) onto the text grid.

Used by DOCX, HTML, text and CSV: each produces blocks, and this module turns them into pages
of lines with synthetic boxes plus a Markdown rendering taken from the structure itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fieldwise.service.engines.parsing.errors import LimitExceeded, PageLimitExceeded
from fieldwise.service.engines.parsing.layout import grid_line
from fieldwise.service.engines.parsing.limits import ParseLimits
from fieldwise.service.engines.parsing.markdown import markdown_table
from fieldwise.service.engines.parsing.model import GRID_CHAR_WIDTH, GRID_LINE_HEIGHT, Line, Page

__all__ = ["ROWS_PER_PAGE", "Block", "layout_blocks", "text_cells"]

ROWS_PER_PAGE = 66
_COLUMN_GAP = 3


@dataclass(frozen=True)
class Block:
    """``kind`` is "heading" (with ``level``), "paragraph", "table" (``rows``) or "raw"."""

    kind: str
    text: str = ""
    level: int = 1
    rows: tuple[tuple[str, ...], ...] = ()


def text_cells(text: str) -> list[tuple[int, str]]:
    """Split a raw text line into (column, token) keeping the columns its spacing shows."""
    expanded = text.expandtabs(8)
    cells: list[tuple[int, str]] = []
    start = None
    for i, ch in enumerate([*expanded, " "]):
        if ch.isspace() and start is not None:
            cells.append((start, expanded[start:i]))
            start = None
        elif not ch.isspace() and start is None:
            start = i
    return cells


def _table_rows(rows: Sequence[Sequence[str]]) -> list[list[tuple[int, str]]]:
    """Each row's cells at their column's start: one pass over the cells for the widths, one
    running sum for the starts (linear in the cells; summing each prefix was quadratic in
    the columns)."""
    widths: list[int] = []
    for row in rows:
        if len(row) > len(widths):
            widths.extend([0] * (len(row) - len(widths)))
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))
    starts = [0] * len(widths)
    for i in range(1, len(widths)):
        starts[i] = starts[i - 1] + widths[i - 1] + _COLUMN_GAP
    return [[(starts[i], cell) for i, cell in enumerate(row) if cell] for row in rows]


def _check_size(grid_rows: list[list[tuple[int, str]]], limits: ParseLimits) -> None:
    pages = -(-max(len(grid_rows), 1) // ROWS_PER_PAGE)
    if pages > limits.max_pages:
        raise PageLimitExceeded(pages, limits.max_pages)
    words = sum(len(text.split()) for row in grid_rows for _, text in row)
    if words > limits.max_words:
        raise LimitExceeded("words laid out", words, limits.max_words, "FIELDWISE_MAX_WORDS")


def layout_blocks(
    blocks: Sequence[Block], limits: ParseLimits | None = None
) -> tuple[tuple[Page, ...], str]:
    """Pages on the grid (``ROWS_PER_PAGE`` rows each) and the structural Markdown. Past
    ``limits``' ``max_pages`` (PageLimitExceeded) or ``max_words`` (LimitExceeded) it is
    refused before any line is built: a word with its box takes about 450 bytes, some
    hundred times its text."""
    grid_rows: list[list[tuple[int, str]]] = []
    markdown: list[str] = []
    raw: list[str] = []
    for block in blocks:
        if block.kind != "raw" and raw:
            markdown.append("\n".join(raw))
            raw = []
        if block.kind == "table" and block.rows:
            cleaned = [[" ".join(c.split()) for c in row] for row in block.rows]
            grid_rows.extend(_table_rows(cleaned))
            markdown.append(markdown_table(cleaned))
            grid_rows.append([])
        elif block.kind == "raw":
            grid_rows.append(text_cells(block.text))
            raw.append(block.text.rstrip())
        elif block.text.strip():
            text = " ".join(block.text.split())
            grid_rows.append([(0, text)])
            grid_rows.append([])
            markdown.append(("#" * block.level + " " + text) if block.kind == "heading" else text)
    if raw:
        markdown.append("\n".join(raw))
    if limits is not None:
        _check_size(grid_rows, limits)
    pages: list[Page] = []
    for start in range(0, max(len(grid_rows), 1), ROWS_PER_PAGE):
        chunk = grid_rows[start : start + ROWS_PER_PAGE]
        lines: list[Line] = []
        for row, cells in enumerate(chunk):
            line = grid_line(cells, row)
            if line is not None:
                lines.append(line)
        width = max((line.box.x1 for line in lines), default=80 * GRID_CHAR_WIDTH)
        pages.append(
            Page(
                number=len(pages) + 1,
                width=max(width, 80 * GRID_CHAR_WIDTH),
                height=ROWS_PER_PAGE * GRID_LINE_HEIGHT,
                lines=tuple(lines),
            )
        )
    return tuple(pages), "\n\n".join(m for m in markdown if m.strip())
