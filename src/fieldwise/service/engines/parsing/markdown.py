"""Markdown from layout: headings by text size, paragraphs by vertical gaps, tables by columns."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import pairwise
from operator import itemgetter

from fieldwise.service.engines.parsing.layout import median, split_cells
from fieldwise.service.engines.parsing.model import Line, Page, Word

__all__ = ["markdown_table", "page_markdown"]


_TEXT = itemgetter(0)  # a Word's text, without the named tuple's property


def markdown_table(rows: Sequence[Sequence[str]]) -> str:
    """A GitHub-style Markdown table; the first row is the header."""
    width = max(len(r) for r in rows)
    padded = [[c.replace("|", "\\|").strip() for c in r] + [""] * (width - len(r)) for r in rows]
    out = ["| " + " | ".join(padded[0]) + " |", "|" + " --- |" * width]
    out.extend("| " + " | ".join(r) + " |" for r in padded[1:])
    return "\n".join(out)


def _columns(block: Sequence[list[tuple[Word, ...]]]) -> list[tuple[float, float]]:
    spans = sorted((c[0].box.x0, c[-1].box.x1) for row in block for c in row)
    merged: list[tuple[float, float]] = []
    for x0, x1 in spans:
        if merged and x0 <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], x1))
        else:
            merged.append((x0, x1))
    return merged


def _table(block: Sequence[list[tuple[Word, ...]]]) -> str | None:
    columns = _columns(block)
    if len(columns) < 2:
        return None
    # Strictly ordered columns (each ends before the next begins) hold a cell's left edge in
    # one column at most, the last that starts at or before it: found by bisection. Otherwise
    # (NaN edges) and when that column does not hold it, they are scanned in order as before.
    ordered = all(x0 <= x1 for x0, x1 in columns) and all(a[1] < b[0] for a, b in pairwise(columns))
    starts = [x0 for x0, _ in columns] if ordered else []
    rows: list[list[str]] = []
    for row in block:
        cells = [""] * len(columns)
        for cell in row:
            left = cell[0].box.x0
            index = bisect_right(starts, left) - 1
            if index < 0 or not columns[index][0] <= left <= columns[index][1]:
                index = next(i for i, (x0, x1) in enumerate(columns) if x0 <= left <= x1)
            text = " ".join(map(_TEXT, cell))
            # the first text of a cell: what stripping " " + text would give
            cells[index] = f"{cells[index]} {text}".strip() if cells[index] else text.strip()
        rows.append(cells)
    return markdown_table(rows)


def page_markdown(page: Page) -> str:
    """Render one page: ``#``/``##`` for large text, tables for runs of multi-column rows."""
    lines = page.lines
    if not lines:
        return ""
    body = median([line.box.y1 - line.box.y0 for line in lines]) or 1.0
    blocks: list[str] = []
    paragraph: list[str] = []
    table: list[list[tuple[Word, ...]]] = []
    previous: Line | None = None

    def flush_paragraph() -> None:
        if paragraph:
            blocks.append("\n".join(paragraph))
            paragraph.clear()

    def flush_table() -> None:
        if len(table) >= 2 and (rendered := _table(table)) is not None:
            blocks.append(rendered)
        else:
            paragraph.extend(" ".join([w[0] for c in row for w in c]) for row in table)
            flush_paragraph()
        table.clear()

    for line in lines:
        cells = split_cells(line)
        gap = line.box.y0 - previous.box.y1 if previous is not None else 0.0
        previous = line
        if len(cells) >= 2:
            flush_paragraph()
            if table and gap > 1.5 * body:
                flush_table()
            table.append(cells)
            continue
        if table:
            flush_table()
        ratio = line.box.height / body
        if ratio >= 1.25 and len(line.text) <= 80:
            flush_paragraph()
            blocks.append(("# " if ratio >= 1.6 else "## ") + line.text)
            continue
        if gap > 0.9 * body:
            flush_paragraph()
        paragraph.append(line.text)
    if table:
        flush_table()
    flush_paragraph()
    return "\n\n".join(blocks)
