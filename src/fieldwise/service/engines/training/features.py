"""Features of a field's candidates: layout, format, context words, labels, agreement, rules.

Every feature is generic: where the value sits (page, position on the page and in its block,
font size against the document's), what it looks like (digits, capitals, length, legal
forms), which words are next to it (the field's configured labels in the engine's languages,
other fields' labels, and context words learned from the training documents), how it agrees
with the document's other values (a total that is the sum of two other amounts, the latest
date, a value printed twice), and whether the rule engine chose it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fieldwise.service.engines.extraction import FieldSpec
from fieldwise.service.engines.extraction.labels import LabelHit, norm
from fieldwise.service.engines.extraction.vocabulary import LEGAL_FORMS
from fieldwise.service.engines.parsing import ParsedDocument
from fieldwise.service.engines.training.candidates import Cand
from fieldwise.service.engines.training.truth import similarity

__all__ = ["BASE_FEATURES", "DocInfo", "context_tokens", "feature_matrix", "inside_tokens", "width"]

_LEFT_WORDS = 4
_ABOVE_LINES = 3
_POSTCODE = re.compile(r"\b\d{4,6}\b")
_PHONE = re.compile(r"\d{2,4}[- ]?\d{3,4}[- ]?\d{3,4}")

BASE_FEATURES = (
    "page", "last_page", "x0", "x1", "y0", "y1", "line_frac", "lines_below", "line_index",
    "span_lines", "words", "chars", "font", "font_rank", "digits", "letters", "upper",
    "colon", "legal_form", "postcode", "phone", "exact", "ocr", "src_word", "src_cell",
    "src_line", "src_block", "src_label", "src_rule", "gap_above", "gap_below", "cell_first",
    "label_left", "label_above", "label_dist", "label_same_line", "other_left", "other_above",
    "value", "log_value", "value_rank", "value_max_ratio", "repeats", "sum_of_two",
    "part_of_sum", "decimals", "date_rank", "date_rank_desc", "dates", "rule_has",
    "rule_equal", "rule_similar", "rule_conf", "abs_year", "ends_legal_form",
    "last_postcode", "prev_digits", "prev_phone", "prev_postcode", "prev_legal_form",
    "next_digits", "next_phone", "next_postcode", "next_legal_form", "text_lines_above",
    "legal_lines_above", "digit_lines_above",
)  # fmt: skip


@dataclass
class DocInfo:
    """What every candidate of a document is compared with (computed once per document)."""

    doc: ParsedDocument
    rule_values: Mapping[str, Any]
    rule_conf: Mapping[str, float]
    hits: Mapping[str, Sequence[LabelHit]]
    amounts: Sequence[float]
    rule_lines: Mapping[str, tuple[int, int, int]] = field(default_factory=dict)
    median_height: float = 1.0
    font_ranks: dict[float, int] = field(default_factory=dict)
    pair_sums: set[int] = field(default_factory=set)
    #: per page, per line: how many lines above it are text lines (letters, no digits), hold
    #: a legal form, or are mostly digits (a letterhead's name comes before its numbers)
    above: list[list[tuple[int, int, int]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.above = [_lines_above([line.text for line in page.lines]) for page in self.doc.pages]
        heights = sorted(w.box.height for p in self.doc.pages for w in p.words)
        self.median_height = heights[len(heights) // 2] if heights else 1.0
        sizes = sorted({round(h / max(self.median_height, 1e-6), 1) for h in heights}, reverse=True)
        self.font_ranks = {size: i for i, size in enumerate(sizes)}
        cents = sorted({round(a * 100) for a in self.amounts if a > 0})[:80]
        self.pair_sums = {a + b for a, b in itertools.combinations(cents, 2)}


def _lines_above(texts: Sequence[str]) -> list[tuple[int, int, int]]:
    out, text_lines, legal, digit_lines = [], 0, 0, 0
    for text in texts:
        out.append((text_lines, legal, digit_lines))
        letters = sum(c.isalpha() for c in text)
        digits = sum(c.isdigit() for c in text)
        text_lines += int(letters >= 3 and digits == 0)
        legal += int(any(norm(x) in LEGAL_FORMS for x in text.split()))
        digit_lines += int(digits > letters)
    return out


def _tokens(texts: Sequence[str]) -> set[str]:
    out = set()
    for text in texts:
        token = norm(text)
        if token and any(ch.isalpha() for ch in token):
            out.add(token)
    return out


def context_tokens(info: DocInfo, cand: Cand) -> tuple[set[str], set[str]]:
    """Words just left of the candidate on its line, and on the line above it."""
    if cand.source == "rule" and cand.box == (0, 0, 0, 0):
        return set(), set()
    lines = info.doc.pages[cand.page].lines
    line = lines[cand.first]
    left = _tokens([w.text for w in line.words[max(0, cand.start - _LEFT_WORDS) : cand.start]])
    above = _tokens([w.text for w in lines[cand.first - 1].words]) if cand.first > 0 else set()
    return left, above


def inside_tokens(cand: Cand) -> set[str]:
    """The words of the candidate itself ("jalan", "sdn", "gmbh", "rm")."""
    return _tokens(cand.text.split())


def _relative(info: DocInfo, cand: Cand, fields: Sequence[str]) -> list[float]:
    """Per field: lines from the rule engine's answer to this candidate, and whether the
    candidate covers that answer's lines (an address block under the shop's name)."""
    out: list[float] = []
    for name in fields:
        where = info.rule_lines.get(name)
        if where is None or where[0] != cand.page or cand.source == "rule":
            out += [-99.0, 0.0]
            continue
        _, first, last = where
        covers = min(cand.last, last) - max(cand.first, first) + 1
        out += [float(max(-30, min(30, cand.first - last))), float(max(covers, 0))]
    return out


def _shape(text: str) -> list[float]:
    words = text.split()
    return [
        sum(c.isdigit() for c in text) / max(len(text), 1),
        float(bool(_PHONE.search(text))),
        float(bool(_POSTCODE.search(text))),
        float(any(norm(x) in LEGAL_FORMS for x in words)),
    ]


def _neighbours(info: DocInfo, cand: Cand) -> list[float]:
    """How the candidate ends, and what the lines just before and after it look like."""
    words = cand.text.split()
    ends = float(bool(words) and norm(words[-1]) in LEGAL_FORMS)
    if cand.source == "rule" and cand.box == (0, 0, 0, 0):
        return [ends, 0.0, *([-1.0] * 8), -1.0, -1.0, -1.0]
    lines = info.doc.pages[cand.page].lines
    last = lines[cand.last].text
    before = _shape(lines[cand.first - 1].text) if cand.first > 0 else [-1.0] * 4
    after = _shape(lines[cand.last + 1].text) if cand.last + 1 < len(lines) else [-1.0] * 4
    above = info.above[cand.page][cand.first]
    return [ends, float(bool(_POSTCODE.search(last))), *before, *after, *map(float, above)]


def _labels(
    info: DocInfo, cand: Cand, hits: Sequence[LabelHit]
) -> tuple[float, float, float, float]:
    left = above = same = 0.0
    dist = float(_ABOVE_LINES + 1)
    for hit in hits:
        if hit.page != cand.page:
            continue
        if hit.line == cand.first:
            same = max(same, hit.score / 100)
            if hit.end <= cand.start:
                left = max(left, hit.score / 100)
        elif 0 < cand.first - hit.line <= _ABOVE_LINES:
            above = max(above, hit.score / 100)
            dist = min(dist, float(cand.first - hit.line))
    return left, above, dist, same


def _layout(info: DocInfo, cand: Cand) -> list[float]:
    page = info.doc.pages[cand.page]
    lines = page.lines
    n = max(len(lines), 1)
    w, h = max(page.width, 1e-6), max(page.height, 1e-6)
    x0, y0, x1, y1 = cand.box
    font = cand.height / max(info.median_height, 1e-6)
    gap_above = gap_below = 10.0
    if cand.first > 0 and cand.source != "rule":
        gap_above = (y0 - lines[cand.first - 1].box.y1) / max(info.median_height, 1e-6)
    if cand.last + 1 < len(lines) and cand.source != "rule":
        gap_below = (lines[cand.last + 1].box.y0 - y1) / max(info.median_height, 1e-6)
    text = cand.text
    letters = [c for c in text if c.isalpha()]
    words = text.split()
    return [
        float(cand.page),
        float(cand.page == len(info.doc.pages) - 1),
        x0 / w, x1 / w, y0 / h, y1 / h,
        cand.first / n, float(n - cand.first), float(cand.first),
        float(cand.last - cand.first + 1), float(len(words)), float(len(text)),
        font, float(info.font_ranks.get(round(font, 1), 9)),
        sum(c.isdigit() for c in text) / max(len(text), 1),
        len(letters) / max(len(text), 1),
        sum(c.isupper() for c in letters) / max(len(letters), 1),
        float(":" in text),
        float(any(norm(x) in LEGAL_FORMS for x in words)),
        float(bool(_POSTCODE.search(text))),
        float(bool(_PHONE.search(text))),
        float(cand.exact), cand.ocr,
        *(float(cand.source == s) for s in ("word", "cell", "line", "block", "label", "rule")),
        min(gap_above, 10.0), min(gap_below, 10.0), float(cand.start == 0),
    ]  # fmt: skip


def _values(
    info: DocInfo, cands: Sequence[Cand], cand: Cand, spec: FieldSpec
) -> tuple[list[float], float]:
    value_feats = [0.0] * 8
    if spec.type in ("currency", "number") and isinstance(cand.value, float):
        v = cand.value
        distinct = sorted(set(info.amounts), reverse=True)
        rank = next((i for i, a in enumerate(distinct) if abs(a - v) < 0.005), len(distinct))
        top = max(distinct, default=0.0)
        cents = round(v * 100)
        text = cand.text.replace(" ", "")
        mark = max(text.rfind("."), text.rfind(","))
        decimals = len(text) - mark - 1 if mark >= 0 else 0
        value_feats = [
            v, float(np.log1p(abs(v))), float(rank), v / top if top > 0 else 0.0,
            float(sum(abs(a - v) < 0.005 for a in info.amounts)),
            float(cents in info.pair_sums),
            float(any(cents + round(b * 100) in info.pair_sums for b in info.amounts[:40])),
            float(decimals if 0 < decimals < 5 else 0),
        ]  # fmt: skip
    date_feats = [0.0, 0.0, 0.0, 0.0]
    if spec.type == "date" and isinstance(cand.value, str):
        dates = sorted({c.value for c in cands if isinstance(c.value, str)})
        rank = dates.index(cand.value) if cand.value in dates else 0
        year = int(cand.value[:4]) if cand.value[:4].isdigit() else 0
        date_feats = [float(rank), float(len(dates) - 1 - rank), float(len(dates)), float(year)]
    return [*value_feats, *date_feats[:3]], date_feats[3]


def _rule(info: DocInfo, cand: Cand, spec: FieldSpec) -> list[float]:
    if spec.name not in info.rule_values:
        return [0.0, 0.0, 0.0, 0.0]
    rule = info.rule_values[spec.name]
    if isinstance(rule, float) and isinstance(cand.value, float):
        equal = abs(rule - cand.value) < 0.005
    else:
        equal = rule == cand.value
    similar = similarity(str(cand.value), str(rule)) if spec.type == "string" else float(equal)
    return [1.0, float(equal), similar, info.rule_conf.get(spec.name, 0.0)]


def width(fields: Sequence[str], vocab: Sequence[str], inside: Sequence[str]) -> int:
    """The number of features of a ranker over ``fields`` with these learned words."""
    return len(BASE_FEATURES) + 2 * len(fields) + 2 * len(vocab) + len(inside)


def feature_matrix(
    info: DocInfo,
    cands: Sequence[Cand],
    spec: FieldSpec,
    fields: Sequence[str],
    vocab: Sequence[str],
    inside: Sequence[str] = (),
) -> np.ndarray:
    """One row per candidate: :data:`BASE_FEATURES`, its position against every field's
    rule answer, then the learned ``vocab`` words left of / above it and ``inside`` words in it.
    """
    index = {token: i for i, token in enumerate(vocab)}
    own_words = {token: i for i, token in enumerate(inside)}
    rows = np.zeros((len(cands), width(fields, vocab, inside)), dtype=np.float64)
    own = info.hits.get(spec.name, ())
    other_hits = [h for name in fields if name != spec.name for h in info.hits.get(name, ())]
    base = len(BASE_FEATURES) + 2 * len(fields)
    for r, cand in enumerate(cands):
        left, above, dist, same = _labels(info, cand, own)
        o_left, o_above, _, _ = _labels(info, cand, other_hits)
        values, year = _values(info, cands, cand, spec)
        row = [
            *_layout(info, cand),
            left, above, dist, same, o_left, o_above,
            *values,
            *_rule(info, cand, spec),
            abs(year - 2020.0) if year else 0.0,
            *_neighbours(info, cand),
            *_relative(info, cand, fields),
        ]  # fmt: skip
        rows[r, : len(row)] = row
        if vocab:
            l_tokens, a_tokens = context_tokens(info, cand)
            for token in l_tokens:
                if token in index:
                    rows[r, base + index[token]] = 1.0
            for token in a_tokens:
                if token in index:
                    rows[r, base + len(vocab) + index[token]] = 1.0
        for token in inside_tokens(cand) if inside else ():
            if token in own_words:
                rows[r, base + 2 * len(vocab) + own_words[token]] = 1.0
    return rows
