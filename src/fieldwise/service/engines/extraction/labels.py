"""Fuzzy label matching over word n-grams of each line (rapidfuzz).

Labels and words are compared after lower-casing and dropping punctuation and spaces, so
"USt.-Id.-Nr.:" matches "USt-IdNr" and OCR's "InvoiceNo:" matches "Invoice No". A match must
cover whole words; a label that does not start its cell scores a little less, because a label
in the middle of a sentence is weaker evidence than one at the head of a form cell.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

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


@functools.lru_cache(maxsize=8192)
def _line_index(line: Line) -> tuple[tuple[str, ...], frozenset[int]]:
    """A line's normalized words and the indices where its cells start (cached: every field
    of every version searches the same lines)."""
    return tuple(norm(w.text) for w in line.words), frozenset(_cell_starts(line))


def find_labels(doc: ParsedDocument, labels: Sequence[str], threshold: float) -> list[LabelHit]:
    """Every place a label matches with a score (0-100) of at least ``threshold``.

    Overlapping hits on one line keep only the best one. Each run of words is scored against
    all labels at once (rapidfuzz's C loop), not label by label.
    """
    wanted = [(label, norm(label)) for label in labels if norm(label)]
    if not wanted:
        return []
    targets = [target for _, target in wanted]
    limits = [len(target) * 1.4 + 2 for target in targets]
    longest = max(limits)
    hits: list[LabelHit] = []
    for p, page in enumerate(doc.pages):
        for li, line in enumerate(page.lines):
            normed, starts = _line_index(line)
            found: list[tuple[float, int, int, int]] = []  # (score, start, label, end)
            for i in range(len(normed)):
                if not normed[i]:
                    continue
                factor = 1.0 if i in starts else _MID_CELL_PENALTY
                cutoff = threshold / factor - 1e-9
                if cutoff > 100:
                    continue
                joined = ""
                for j in range(i, len(normed)):
                    joined += normed[j]
                    if len(joined) > longest:
                        break
                    for _, raw, k in process.extract(
                        joined, targets, scorer=fuzz.ratio, score_cutoff=cutoff, limit=None
                    ):
                        score = raw * factor if factor != 1.0 else raw
                        if len(joined) <= limits[k] and score >= threshold:
                            found.append((score, i, k, j + 1))
            # best first; among equals the label listed first, then the shorter run
            found.sort(key=lambda h: (-h[0], h[1], h[2], h[3]))
            taken: list[LabelHit] = []
            for score, start, k, end in found:
                if all(end <= t.start or start >= t.end for t in taken):
                    taken.append(LabelHit(p, li, start, end, score, wanted[k][0]))
            hits.extend(taken)
    return hits
