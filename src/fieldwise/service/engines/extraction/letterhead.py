"""The letterhead strategy: an unlabeled field read from the top of page 1.

A sender prints its name in the letterhead, large or first, and labels it with nothing. The
candidates are the cells (gap-separated runs of words) of the lines in the top quarter of
page 1; cells that are document titles ("Invoice", "Tax invoice"), the field's ``exclude``
texts, or carry another field's label are dropped, and so are cells without letters or made
mostly of digits (street lines, VAT ids). The tallest text wins (median word height, the font
size), the first in reading order among equals.

Confidence reflects how clearly the winner stands out: 0.6 when the runner-up is as tall,
rising to 0.95 when the winner is 1.5 times taller, times the OCR score of its words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from statistics import median

from rapidfuzz import fuzz

from fieldwise.service.engines.extraction.candidate import Candidate
from fieldwise.service.engines.extraction.config import ExtractionConfig, FieldSpec
from fieldwise.service.engines.extraction.labels import find_labels, norm
from fieldwise.service.engines.extraction.normalize import Parsed
from fieldwise.service.engines.extraction.patterns import compiled
from fieldwise.service.engines.parsing import ParsedDocument, Word, split_cells

__all__ = ["DOCUMENT_TITLES", "letterhead"]

DOCUMENT_TITLES = (
    "Invoice",
    "Tax invoice",
    "Commercial invoice",
    "Pro forma invoice",
    "Credit note",
    "Bill",
    "Bill for services",
    "Receipt",
    "Statement",
    "Quote",
    "Quotation",
    "Rechnung",
    "Gutschrift",
    "Facture",
)
_TOP_SHARE = 0.25
_SAME_HEIGHT = 0.95  # heights within 5 % count as equal: reading order decides
_BASE, _GAIN, _FULL_RATIO = 0.6, 0.35, 1.5


def _is_excluded(text: str, excluded: Iterable[str], threshold: float) -> bool:
    target = norm(text)
    return any(fuzz.ratio(target, norm(other)) >= threshold for other in excluded)


def _mostly_digits(text: str) -> bool:
    letters = sum(ch.isalpha() for ch in text)
    digits = sum(ch.isdigit() for ch in text)
    return letters < 2 or digits > letters


def _labelled_words(doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig) -> set[int]:
    labels = [label for other in config.fields if other is not spec for label in other.labels]
    labels += [label for other in config.fields for c in other.columns for label in c.labels]
    return {
        id(word)
        for hit in find_labels(doc, labels, config.label_threshold)
        if hit.page == 0
        for word in hit.words(doc)
    }


def _cells(doc: ParsedDocument) -> list[tuple[tuple[Word, ...], float]]:
    page = doc.pages[0]
    out = []
    for line in page.lines:
        if line.box.y0 > page.height * _TOP_SHARE:
            break
        for cell in split_cells(line):
            out.append((cell, float(median(w.box.height for w in cell))))
    return out


def letterhead(
    doc: ParsedDocument,
    spec: FieldSpec,
    config: ExtractionConfig,
    skip: Callable[[str], bool] | None = None,
) -> Candidate | None:
    """The most prominent text at the top of page 1 that is not a title or another label.

    ``skip`` drops more candidate texts (the seller strategy drops address-like ones).
    """
    if not doc.pages:
        return None
    labelled = _labelled_words(doc, spec, config)
    excluded = (*DOCUMENT_TITLES, *spec.exclude)
    pattern = compiled(spec.pattern)
    found: list[tuple[str, float, float]] = []
    for cell, height in _cells(doc):
        text = " ".join(w.text for w in cell).strip()
        if not text or _mostly_digits(text) or any(id(w) in labelled for w in cell):
            continue
        if _is_excluded(text, excluded, config.label_threshold):
            continue
        if pattern is not None and not pattern.search(text):
            continue
        if skip is not None and skip(text):
            continue
        found.append((text, height, min(w.confidence for w in cell)))
    if not found:
        return None
    tallest = max(h for _, h, _ in found)
    text, height, ocr = next(c for c in found if c[1] >= _SAME_HEIGHT * tallest)
    others = [h for t, h, _ in found if t != text]
    ratio = height / max(others) if others else _FULL_RATIO
    stands_out = max(0.0, min(1.0, (ratio - 1.0) / (_FULL_RATIO - 1.0)))
    confidence = (_BASE + _GAIN * stands_out) * ocr
    return Candidate(Parsed(text, text, True), confidence, 0, text)
