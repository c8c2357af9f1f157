"""The issue date among a document's several dates.

An invoice prints its issue date beside delivery, service-period, order and due dates, often
under the same bare label ("Datum", "Date", "vom"). The role words (:mod:`.roles`) drop the
dates whose own words say they are something else; what they leave may still disagree. Then:

- **plausibility**: an invoice is issued on or before it falls due, so a candidate after the
  date the due labels read is not the issue date (unless no candidate would be left);
- **the header**: the issue date is printed in the document's header, the block where the
  invoice number and the document's title stand; a date whose label sits within a few lines
  of them outranks one printed elsewhere (a line item's date, a footer's terms);
- **the label's own words**: a label that names the document ("Rechnungsdatum", "Invoice
  date", a bare "Date" in the cell "Date de facture") outranks a bare one ("Datum", "Date")
  when both are found.

Each preference is a factor on the candidates' confidence, so position and label strength
still count: it reorders candidates that disagree, it never invents one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from fieldwise.service.engines.extraction.candidate import Candidate
from fieldwise.service.engines.extraction.identifiers import INVOICE_WORDS
from fieldwise.service.engines.extraction.labels import LabelHit, norm
from fieldwise.service.engines.extraction.roles import words_of
from fieldwise.service.engines.parsing import ParsedDocument

__all__ = ["BARE_DATE_LABELS", "in_header", "names_invoice", "not_after", "prefer_header"]

# labels that say "date" and nothing else: they introduce any date of the document
BARE_DATE_LABELS = frozenset(
    norm(w) for w in ("Date", "Datum", "vom", "Data", "Fecha", "le", "du", "van", "del", "dated")
)
_HEADER_LINES = 6.0  # line heights from an anchor that still count as its block
_AWAY = 0.9  # a date printed away from the header
_BARE = 0.8  # a date under a bare label, when a label naming the document found another


def not_after(candidates: list[Candidate], due: str | None) -> list[Candidate]:
    """``candidates`` without the dates after ``due`` (ISO), unless none would be left."""
    if due is None:
        return candidates
    kept = [c for c in candidates if str(c.parsed.value) <= due]
    return kept or candidates


def in_header(doc: ParsedDocument, hit: LabelHit, anchors: Sequence[LabelHit]) -> bool:
    """Whether ``hit`` sits within a few line heights of an anchor on its page."""
    line = doc.pages[hit.page].lines[hit.line].box
    height = max(line.height, 1.0)
    for anchor in anchors:
        if anchor.page != hit.page:
            continue
        other = doc.pages[anchor.page].lines[anchor.line].box
        if abs(other.y0 - line.y0) <= _HEADER_LINES * height:
            return True
    return False


def names_invoice(doc: ParsedDocument, hit: LabelHit) -> bool:
    """Whether the label names the invoice: a label that says more than "date", or a bare one
    the word just before it ("Rechnung vom") or the words between it and its value ("Date de
    facture :") name. Words further off may name another document ("Rechnung gemäß
    Abrechnung vom ...": the date is the other document's)."""
    if norm(hit.label) not in BARE_DATE_LABELS:
        return True
    line = doc.pages[hit.page].lines[hit.line]
    near = [line.words[hit.start - 1].text] if hit.start > 0 else []
    for word in line.words[hit.end :]:
        if any(ch.isdigit() for ch in word.text):
            break
        near.append(word.text)
    return not words_of(" ".join(near)).isdisjoint(INVOICE_WORDS)


def prefer_header(
    candidates: list[tuple[Candidate, LabelHit]],
    doc: ParsedDocument,
    anchors: Sequence[LabelHit],
) -> list[Candidate]:
    """The candidates, each with its confidence weighed by where its label stands and what it
    says; unchanged when they all agree on one value (nothing to choose)."""
    if len({c.parsed.value for c, _ in candidates}) < 2:
        return [c for c, _ in candidates]
    near = [in_header(doc, hit, anchors) for _, hit in candidates]
    bare = [not names_invoice(doc, hit) for _, hit in candidates]
    some_near, some_named = any(near), not all(bare)
    out = []
    for (cand, _), is_near, is_bare in zip(candidates, near, bare, strict=True):
        factor = 1.0
        if some_near and not is_near:
            factor *= _AWAY
        if some_named and is_bare:
            factor *= _BARE
        out.append(replace(cand, confidence=cand.confidence * factor) if factor != 1.0 else cand)
    return out
