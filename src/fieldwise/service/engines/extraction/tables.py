"""Array fields: find the header row by column labels, then read rows until the table ends.

The header is the line where most column labels match (at least two, or the only column).
Each word below is assigned to the column whose header it overlaps, else the nearest header
centre. The table ends at a large vertical gap, at a line that carries another field's label
(e.g. "Total"), or at a line that fills too few columns to be a row. A line that fills only
text columns continues the previous row (wrapped descriptions).

Opt-in per array field (defaults keep the original reading):
- ``"sub_lines": "skip"``: a text-only line in a smaller font or indented under its row
  ("Pos. 01 · article 34825") is a sub-line of that row, not part of its description;
- ``"cells": "gaps"``: a line is first split into cells at wide gaps and each whole cell goes
  to one column, so a description running under the next header ("bolts (box of 100)") keeps
  its words instead of lending "100)" to the quantity column.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

from fieldwise.service.engines.extraction.config import ExtractionConfig, FieldSpec
from fieldwise.service.engines.extraction.labels import LabelHit, find_labels
from fieldwise.service.engines.extraction.normalize import Parsed
from fieldwise.service.engines.extraction.typed import parse_typed, validity
from fieldwise.service.engines.parsing import Box, Line, ParsedDocument, Word, split_cells

__all__ = ["Row", "Table", "find_table", "read_table"]

_MAX_GAP = 2.5  # line heights between rows before the table is considered over
_SUB_LINE_HEIGHT = 0.85  # a continuation this much smaller than its row's text is a sub-line
_SUB_LINE_INDENT = 0.5  # ... or one indented by half a line height or more


@dataclass(frozen=True)
class Row:
    """One row: column name → (parsed value, source text, confidence)."""

    cells: dict[str, tuple[Parsed, float]]
    page: int
    text: str
    continued: bool = False


@dataclass(frozen=True)
class Table:
    """The rows of an array field and how well its header matched (0..1)."""

    rows: tuple[Row, ...]
    header_score: float
    page: int
    header_text: str
    columns: int = 1

    @property
    def confidence(self) -> float:
        """Header match x how completely rows fill the columns; wrapped rows are less sure."""
        if not self.rows:
            return 0.0
        filled = sum(len(r.cells) for r in self.rows) / (len(self.rows) * self.columns)
        wrapped = 0.8 if any(r.continued for r in self.rows) else 1.0
        return self.header_score * filled * wrapped


def _header(
    doc: ParsedDocument, spec: FieldSpec, threshold: float
) -> tuple[int, int, dict[str, Box], float] | None:
    found: dict[tuple[int, int], dict[str, LabelHit]] = {}
    for column in spec.columns:
        for hit in find_labels(doc, column.labels, threshold):
            slot = found.setdefault((hit.page, hit.line), {})
            if column.name not in slot or slot[column.name].score < hit.score:
                slot[column.name] = hit
    need = min(2, len(spec.columns))
    best = None
    for (page, line), hits in found.items():
        if len(hits) < need:
            continue
        coverage = len(hits) / len(spec.columns)
        score = coverage * sum(h.score for h in hits.values()) / len(hits) / 100
        if best is None or score > best[3]:
            boxes = {}
            for name, hit in hits.items():
                words = hit.words(doc)
                box = words[0].box
                for w in words[1:]:
                    box = box.union(w.box)
                boxes[name] = box
            best = (page, line, boxes, score)
    return best


def _assign(words: Sequence[Word], boxes: dict[str, Box]) -> dict[str, list[Word]]:
    out: dict[str, list[Word]] = {}
    for word in words:

        def rank(name: str, w: Word = word) -> tuple[float, float]:
            box = boxes[name]
            overlap = min(box.x1, w.box.x1) - max(box.x0, w.box.x0)
            centre = abs((box.x0 + box.x1) / 2 - (w.box.x0 + w.box.x1) / 2)
            return (-max(overlap, 0.0), centre)

        out.setdefault(min(boxes, key=rank), []).append(word)
    return out


def _assign_cells(line: Line, boxes: dict[str, Box]) -> dict[str, list[Word]]:
    out: dict[str, list[Word]] = {}
    for cell in split_cells(line):
        box = cell[0].box
        for w in cell[1:]:
            box = box.union(w.box)
        cell_word = Word(" ".join(w.text for w in cell), box, min(w.confidence for w in cell))
        for name, words in _assign([cell_word], boxes).items():
            out.setdefault(name, []).extend(words)
    return out


def _is_sub_line(line: Line, row_line: Line) -> bool:
    height = median(w.box.height for w in row_line.words)
    smaller = median(w.box.height for w in line.words) < _SUB_LINE_HEIGHT * height
    indented = line.box.x0 - row_line.box.x0 >= _SUB_LINE_INDENT * height
    return smaller or indented


def _stops(line: Line, stop_lines: set[tuple[int, int]], key: tuple[int, int]) -> bool:
    return key in stop_lines or not line.words


def find_table(
    doc: ParsedDocument,
    spec: FieldSpec,
    *,
    threshold: float,
    date_order: str,
    lenient_dates: bool = False,
    stop_lines: set[tuple[int, int]],
) -> Table | None:
    """Read the table of an array field, or None when no header matches."""
    header = _header(doc, spec, threshold)
    if header is None:
        return None
    page_index, line_index, boxes, header_score = header
    page = doc.pages[page_index]
    kinds = {c.name: c.type for c in spec.columns}
    rows: list[Row] = []
    row_lines: list[Line] = []  # the first line of each row
    previous = page.lines[line_index]
    height = median(w.box.height for w in previous.words)
    for offset, line in enumerate(page.lines[line_index + 1 :], start=line_index + 1):
        if line.box.y0 - previous.box.y1 > _MAX_GAP * height:
            break
        if _stops(line, stop_lines, (page_index, offset)):
            break
        if spec.cells == "gaps":
            assigned = _assign_cells(line, boxes)
        else:
            assigned = _assign(line.words, boxes)
        cells: dict[str, tuple[Parsed, float]] = {}
        bad = 0
        for name, words in assigned.items():
            text = " ".join(w.text for w in words)
            parsed = parse_typed(
                text, kinds[name], date_order=date_order, lenient_dates=lenient_dates
            )
            if parsed is None:
                bad += 1
                continue
            ocr = min(w.confidence for w in words)
            cells[name] = (parsed, header_score * validity(parsed, kinds[name], None) * ocr)
        typed = [n for n in cells if kinds[n] != "string"]
        continuation = bool(rows) and not typed and bad == 0 and bool(cells)
        if continuation and spec.sub_lines == "skip" and _is_sub_line(line, row_lines[-1]):
            previous = line
            continue
        if continuation:
            last = rows[-1]
            merged = dict(last.cells)
            for name, (parsed, conf) in cells.items():
                if name in merged and kinds[name] == "string":
                    old, old_conf = merged[name]
                    text = f"{old.value} {parsed.value}"
                    merged[name] = (Parsed(text, text, old.exact), min(old_conf, conf))
                else:
                    merged[name] = (parsed, conf)
            rows[-1] = Row(merged, last.page, f"{last.text}\n{line.text}", continued=True)
        elif len(cells) >= min(2, len(kinds)) and bad <= len(cells) // 2:
            rows.append(Row(cells, page_index, line.text))
            row_lines.append(line)
        else:
            break
        previous = line
    header_text = page.lines[line_index].text
    return Table(tuple(rows), header_score, page_index, header_text, len(spec.columns))


def read_table(doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig) -> Table | None:
    """:func:`find_table` as a config reads it: the table ends at a line that starts with
    another field's label."""
    stop_lines = {
        (hit.page, hit.line)
        for other in config.fields
        if other.type != "array" and other.labels
        for hit in find_labels(doc, other.labels, config.label_threshold)
        if hit.start == 0
    }
    return find_table(
        doc,
        spec,
        threshold=config.label_threshold,
        date_order=config.date_order,
        lenient_dates=config.lenient_dates,
        stop_lines=stop_lines,
    )
