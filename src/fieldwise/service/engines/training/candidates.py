"""Candidate values of a field on a parsed document: typed spans, text cells and blocks.

The rule engine's finders are the sources: its typed parsers read every word window and cell
(amounts, dates, enum values, patterned ids), its label finder and value locator offer the
snippets next to the field's labels, and free-text fields (names, addresses) are offered as
cells, lines and blocks of consecutive lines. The rule engine's own answer is always a
candidate too, so the ranker can never do worse than choose it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fieldwise.service.engines.extraction import ExtractionConfig, FieldSpec
from fieldwise.service.engines.extraction.labels import LabelHit
from fieldwise.service.engines.extraction.locate import value_snippets
from fieldwise.service.engines.extraction.normalize import Parsed, parse_string
from fieldwise.service.engines.extraction.typed import compiled, parse_typed
from fieldwise.service.engines.parsing import Line, ParsedDocument, Word, split_cells

__all__ = [
    "Cand", "base_candidates", "candidates", "is_free_text", "locate_lines", "unglue_date",
]  # fmt: skip

_TYPED_WINDOW = 4  # words: "12 MAR 2018", "RM 29.30", "EUR 1.234,50"
_PATTERN_WINDOW = 8  # words: an IBAN printed in groups of four
_JUNK = " \t:#-–|;,"
# OCR glues the time to the year ("25/Feb/201707:43") and reads a separator as a tilde
# ("10~04-2018"): a year of four digits followed by more digits is cut after the year
_GLUED_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?=\d)")


@dataclass(frozen=True)
class Cand:
    """One candidate: its normalized value, where it is (page, lines, words, box), and how."""

    value: Any
    text: str
    page: int
    first: int  # first line index on the page
    last: int  # last line index (inclusive)
    start: int  # first word index on the first line
    end: int  # word index after the span on the last line
    box: tuple[float, float, float, float]
    exact: bool
    source: str  # word, cell, line, block, label, rule
    ocr: float
    height: float  # median word height of the span


def is_free_text(spec: FieldSpec) -> bool:
    """A string field nothing validates: its candidates are cells, lines and blocks."""
    return spec.type == "string" and spec.pattern is None


def _read(text: str, spec: FieldSpec, config: ExtractionConfig) -> Parsed | None:
    """The first value of the field's type in ``text``, read as the config reads values."""
    order, lenient, pattern = config.date_order, config.lenient_dates, spec.pattern
    return parse_typed(
        text, spec.type, date_order=order, pattern=pattern, values=spec.values,
        lenient_dates=lenient, percent=spec.percent,
    )  # fmt: skip


def unglue_date(text: str) -> str:
    """``text`` with a year cut from the digits OCR glued to it and tildes read as hyphens."""
    return _GLUED_YEAR.sub(r"\1 ", text.replace("~", "-"))


def _median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if ordered else 0.0


def _make(
    value: Any,
    text: str,
    exact: bool,
    page: int,
    lines: Sequence[Line],
    first: int,
    last: int,
    span: tuple[int, int],
    source: str,
) -> Cand:
    if first == last:
        words: Sequence[Word] = lines[first].words[span[0] : span[1]]
    else:
        words = [w for line in lines[first : last + 1] for w in line.words]
    x0 = min(w.box.x0 for w in words)
    x1 = max(w.box.x1 for w in words)
    y0 = min(w.box.y0 for w in words)
    y1 = max(w.box.y1 for w in words)
    ocr = min(w.confidence for w in words)
    height = _median([w.box.height for w in words])
    return Cand(value, text, page, first, last, *span, (x0, y0, x1, y1), exact, source, ocr, height)


def _cell_spans(line: Line) -> list[tuple[int, int]]:
    spans, index = [], 0
    for cell in split_cells(line):
        spans.append((index, index + len(cell)))
        index += len(cell)
    return spans


def _text(line: Line, start: int, end: int) -> str:
    return " ".join(w.text for w in line.words[start:end])


def _typed(doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig) -> list[Cand]:
    window = _TYPED_WINDOW if spec.pattern is None else _PATTERN_WINDOW
    out: list[Cand] = []
    for p, page in enumerate(doc.pages):
        for li, line in enumerate(page.lines):
            n = len(line.words)
            spans = [(i, j) for i in range(n) for j in range(i + 1, min(n, i + window) + 1)]
            spans += [s for s in _cell_spans(line) if s[1] - s[0] > window]
            seen: dict[Any, int] = {}
            for start, end in spans:
                text = _text(line, start, end)
                parsed = _read(text, spec, config)
                if spec.type == "date" and (glued := unglue_date(text)) != text:
                    repaired = _read(glued, spec, config)
                    if repaired is not None and (parsed is None or repaired.value != parsed.value):
                        # the repaired reading is one more candidate, not an exact one
                        cand = _make(
                            repaired.value, text, False, p, page.lines, li, li, (start, end),
                            "word",
                        )  # fmt: skip
                        if repaired.value not in seen:
                            seen[repaired.value] = len(out)
                            out.append(cand)
                if parsed is None:
                    continue
                lines = page.lines
                cand = _make(
                    parsed.value, text, parsed.exact, p, lines, li, li, (start, end), "word"
                )
                # one candidate per value and line: the shortest span that reads it
                if parsed.value in seen:
                    old = out[seen[parsed.value]]
                    if len(old.text) <= len(text):
                        continue
                    out[seen[parsed.value]] = cand
                else:
                    seen[parsed.value] = len(out)
                    out.append(cand)
    return out


def _clean(text: str) -> str:
    return " ".join(text.split()).strip(_JUNK).strip()


def _free_text(doc: ParsedDocument, max_lines: int) -> list[Cand]:
    out: list[Cand] = []
    for p, page in enumerate(doc.pages):
        lines = page.lines
        for li, line in enumerate(lines):
            if not line.words:
                continue
            spans = _cell_spans(line)
            if len(spans) > 1:
                for start, end in spans:
                    text = _clean(_text(line, start, end))
                    if text:
                        out.append(_make(text, text, True, p, lines, li, li, (start, end), "cell"))
            text = _clean(line.text)
            if text:
                out.append(_make(text, text, True, p, lines, li, li, (0, len(line.words)), "line"))
            for last in range(li + 1, min(len(lines), li + max_lines)):
                if not lines[last].words:
                    break
                joined = _clean(" ".join(x.text for x in lines[li : last + 1]))
                span = (0, len(lines[last].words))
                out.append(_make(joined, joined, True, p, lines, li, last, span, "block"))
    return out


def _word_index(line: Line, words: Sequence[Word]) -> int:
    for i, word in enumerate(line.words):
        if word is words[0]:
            return i
    return 0


def _near_labels(
    doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig, hits: Sequence[LabelHit]
) -> list[Cand]:
    out: list[Cand] = []
    pattern = compiled(spec.pattern)
    for hit in hits:
        for snippet in value_snippets(doc, hit, spec.position, before=spec.percent):
            if not snippet.words:
                continue
            value: Any
            if is_free_text(spec):
                value = _clean(snippet.text)
                parsed = parse_string(snippet.text, pattern)
                exact = parsed is not None
            else:
                typed = _read(snippet.text, spec, config)
                value, exact = (None, False) if typed is None else (typed.value, typed.exact)
            if value is None or value == "":
                continue
            lines = doc.pages[snippet.page].lines
            li = next(
                (
                    i
                    for i, line in enumerate(lines)
                    if any(w is snippet.words[0] for w in line.words)
                ),
                None,
            )
            if li is None:
                continue
            start = _word_index(lines[li], snippet.words)
            span = (start, start + len(snippet.words))
            out.append(
                _make(value, snippet.text, exact, snippet.page, lines, li, li, span, "label")
            )
    return out


def locate_lines(doc: ParsedDocument, page: int, text: str) -> tuple[int, int, int] | None:
    """The lines a text was read from (page, first, last): the first line inside it (or
    holding it) and the lines after it that it also holds; None when no line matches."""
    if not text or not 0 <= page < len(doc.pages):
        return None
    lines = doc.pages[page].lines
    for first, line in enumerate(lines):
        if line.text and (line.text in text or text in line.text):
            last = first
            while last + 1 < len(lines) and lines[last + 1].text and lines[last + 1].text in text:
                last += 1
            return page, first, last
    return None


def base_candidates(
    doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig, max_lines: int
) -> list[Cand]:
    """The candidates that depend only on the field's type: typed spans, or text blocks."""
    return _free_text(doc, max_lines) if is_free_text(spec) else _typed(doc, spec, config)


def candidates(
    doc: ParsedDocument,
    spec: FieldSpec,
    config: ExtractionConfig,
    hits: Sequence[LabelHit],
    rule: tuple[Any, int, str] | None,
    base: Sequence[Cand],
) -> list[Cand]:
    """Every candidate of ``spec`` on ``doc``: ``base`` (see :func:`base_candidates`), the
    snippets next to its labels, and ``rule``, the rule engine's (value, 0-based page, text)
    for the field, when no candidate has its value."""
    found = [*base, *_near_labels(doc, spec, config, hits)]
    if rule is not None and all(c.value != rule[0] for c in found):
        value, page, text = rule
        located = locate_lines(doc, page, text)
        if located is not None:
            _, first, last = located
            lines = doc.pages[page].lines
            span = (0, len(lines[last].words))
            found.append(_make(value, text, True, page, lines, first, last, span, "rule"))
        elif 0 <= page < len(doc.pages):
            found.append(Cand(value, text, page, 0, 0, 0, 0, (0, 0, 0, 0), True, "rule", 1.0, 0.0))
    return found
