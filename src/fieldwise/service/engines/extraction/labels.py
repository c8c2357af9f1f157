"""Fuzzy label matching over word n-grams of each line (rapidfuzz).

Labels and words are compared after lower-casing and dropping punctuation and spaces, so
"USt.-Id.-Nr.:" matches "USt-IdNr" and OCR's "InvoiceNo:" matches "Invoice No". A match must
cover whole words; a label that does not start its cell scores a little less, because a label
in the middle of a sentence is weaker evidence than one at the head of a form cell.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from fieldwise.service.engines.parsing import Line, ParsedDocument, Word, split_cells

__all__ = ["LabelHit", "find_labels", "norm"]

_KEEP = set("#%€$£")
_MID_CELL_PENALTY = 0.95


def norm(text: str) -> str:
    """Lower-case, NFKC, letters, digits and a few meaningful symbols only."""
    text = unicodedata.normalize("NFKC", text).lower()
    return "".join(ch for ch in text if ch.isalnum() or ch in _KEEP)


@dataclass(frozen=True)
class LabelHit:
    """A label found on ``page`` (0-based index) ``line``, covering words [start, end)."""

    page: int
    line: int
    start: int
    end: int
    score: float
    label: str

    def words(self, doc: ParsedDocument) -> Sequence[Word]:
        return doc.pages[self.page].lines[self.line].words[self.start : self.end]


def _cell_starts(line: Line) -> set[int]:
    starts, index = set(), 0
    for cell in split_cells(line):
        starts.add(index)
        index += len(cell)
    return starts


def find_labels(doc: ParsedDocument, labels: Sequence[str], threshold: float) -> list[LabelHit]:
    """Every place a label matches with a score (0-100) of at least ``threshold``.

    Overlapping hits on one line keep only the best one.
    """
    wanted = [(label, norm(label)) for label in labels if norm(label)]
    hits: list[LabelHit] = []
    for p, page in enumerate(doc.pages):
        for li, line in enumerate(page.lines):
            normed = [norm(w.text) for w in line.words]
            starts = _cell_starts(line)
            line_hits: list[LabelHit] = []
            for label, target in wanted:
                limit = len(target) * 1.4 + 2
                for i in range(len(normed)):
                    if not normed[i]:
                        continue
                    joined = ""
                    for j in range(i, len(normed)):
                        joined += normed[j]
                        if len(joined) > limit:
                            break
                        score = fuzz.ratio(target, joined)
                        if i not in starts:
                            score *= _MID_CELL_PENALTY
                        if score >= threshold:
                            line_hits.append(LabelHit(p, li, i, j + 1, score, label))
            line_hits.sort(key=lambda h: (-h.score, h.start))
            taken: list[LabelHit] = []
            for hit in line_hits:
                if all(hit.end <= t.start or hit.start >= t.end for t in taken):
                    taken.append(hit)
            hits.extend(taken)
    return hits
