"""Values read for one field: the candidates under each of its labels, ranked, and the scan
for a self-validating type when no label has one (the confidences the engine's docstring
describes, see :mod:`.engine`)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from rapidfuzz import fuzz

from fieldwise.service.engines.extraction.candidate import Candidate
from fieldwise.service.engines.extraction.config import ExtractionConfig, FieldSpec
from fieldwise.service.engines.extraction.consistency import PARTS, printed_amounts
from fieldwise.service.engines.extraction.continued import continued
from fieldwise.service.engines.extraction.dates import glued_day_month, in_code
from fieldwise.service.engines.extraction.identifiers import foreign_identifier, identifier_role
from fieldwise.service.engines.extraction.labels import LabelHit, find_labels, norm
from fieldwise.service.engines.extraction.locate import value_snippets
from fieldwise.service.engines.extraction.normalize import Parsed
from fieldwise.service.engines.extraction.plausible import plausible
from fieldwise.service.engines.extraction.roles import foreign_role, role_of
from fieldwise.service.engines.extraction.sections import section_lines
from fieldwise.service.engines.extraction.typed import parse_typed, validity
from fieldwise.service.engines.parsing import ParsedDocument

__all__ = [
    "best_of",
    "first_read",
    "hit_groups",
    "label_candidates",
    "parse_value",
    "scan",
    "section_within",
]

_AMBIGUOUS_RATIO = 0.9
_AMBIGUOUS_FACTOR = 0.7
_SCAN_CONFIDENCE = 0.35
_OVERRULED_FACTOR = 0.85
# an amount printed without cents on a page whose amounts print them is more likely a count
# ("Total Qty: 7" with its "Qty" garbled by OCR) than a total: a weaker candidate
_DECIMAL = re.compile(r"\d[.,]\d{2}(?!\d)")
_WHOLE_FACTOR = 0.5
# a label whose own value is missing: words without a digit ending in a colon or a number
# mark ("GST No.", "Tel:", "Invoice #")
_BARE_LABEL = re.compile(r"^[^\d]*(?::|\b(?:no|nr|n°)\.?|#)$", re.IGNORECASE)


def _label_factor(score: float) -> float:
    return max(0.0, min(1.0, (score - 50.0) / 50.0))


def parse_value(text: str, spec: FieldSpec, config: ExtractionConfig) -> Parsed | None:
    return parse_typed(
        text,
        spec.type,
        date_order=config.date_order,
        pattern=spec.pattern,
        values=spec.values,
        lenient_dates=config.lenient_dates,
        percent=spec.percent,
    )


def section_within(
    doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig
) -> set[tuple[int, int]] | None:
    """The (page, line) pairs a field with a ``section`` may read; None: anywhere."""
    if not spec.section:
        return None
    every = [h for other in config.fields for h in other.section]
    return section_lines(doc, spec.section, every)


def label_candidates(
    doc: ParsedDocument,
    spec: FieldSpec,
    config: ExtractionConfig,
    within: set[tuple[int, int]] | None,
) -> list[list[Candidate]]:
    """The candidates of each label hit, hits in reading order."""
    return [group for _, group in hit_groups(doc, spec, config, within)]


def hit_groups(
    doc: ParsedDocument,
    spec: FieldSpec,
    config: ExtractionConfig,
    within: set[tuple[int, int]] | None,
) -> list[tuple[LabelHit, list[Candidate]]]:
    """Each label hit in reading order, with its candidates."""
    groups: list[tuple[LabelHit, list[Candidate]]] = []
    role = role_of(spec.vocabulary, spec.labels)
    cents = role == "grand_total" and spec.type == "currency" and bool(printed_amounts(doc))
    identifier = identifier_role(spec.vocabulary, spec.labels) if spec.type == "string" else None
    for hit in find_labels(doc, spec.labels, config.label_threshold):
        if within is not None and (hit.page, hit.line) not in within:
            continue
        out: list[Candidate] = []
        groups.append((hit, out))
        # the parts of an equation may sit anywhere along the label's row (see consistency.py)
        row = spec.vocabulary in PARTS and spec.type == "currency"
        for snippet in value_snippets(doc, hit, spec.position, before=spec.percent, row=row):
            if spec.type == "string" and spec.pattern is None:
                if _BARE_LABEL.match(snippet.text.strip()):
                    continue  # the next label of a form ("Address" over "GST No."): no value
                snippet = continued(doc, snippet, hit.line)  # a name begun on the line above
            parsed = parse_value(snippet.text, spec, config)
            if parsed is None:
                continue
            if spec.type in ("currency", "date") and foreign_role(
                role, snippet.context, snippet.text, hit.label
            ):
                continue  # "Total" beside "Cash", "Date" beside "delivery": another role
            if identifier is not None and foreign_identifier(
                identifier, snippet.near, snippet.text, hit.label, str(parsed.value)
            ):
                continue  # "Nr." beside "Kunden", "Invoice No" reading a date: another number
            score = hit.score
            if snippet.label_cell:
                # the label's whole cell is the real label: "Total" inside "Total excl. tax"
                # is a weak match even though the word "Total" matches exactly
                whole = fuzz.ratio(norm(hit.label), norm(snippet.label_cell))
                score = min(score, max(whole, 0.8 * score))
            confidence = (
                _label_factor(score)
                * snippet.weight
                * validity(parsed, spec.type, spec.pattern)
                * snippet.ocr_confidence
            )
            if cents and not _DECIMAL.search(parsed.text):
                confidence *= _WHOLE_FACTOR
            out.append(Candidate(parsed, confidence, snippet.page, snippet.text))
    return groups


def first_read(groups: list[list[Candidate]]) -> Candidate | None:
    """``"occurrence": "first"``: the first label in reading order that has a value."""
    for index, group in enumerate(groups):
        chosen = best_of(group)
        if chosen is None:
            continue
        later = [c for g in groups[index + 1 :] for c in g]
        if any(
            c.parsed.value != chosen.parsed.value and c.confidence > chosen.confidence
            for c in later
        ):
            # the config, not the evidence, chose between values: less sure
            return replace(chosen, confidence=chosen.confidence * _OVERRULED_FACTOR, doubted=True)
        return chosen
    return None


def scan(
    doc: ParsedDocument,
    spec: FieldSpec,
    config: ExtractionConfig,
    within: set[tuple[int, int]] | None,
) -> Candidate | None:
    """Without a label: the first value of a self-validating type in reading order (for a
    date, the first that the document's other dates make plausible)."""
    if not (spec.type in ("date", "enum") or (spec.type == "string" and spec.pattern)):
        return None
    found: list[Candidate] = []
    # date-shaped pieces of codes and glued day-months: only when nothing else is found
    codes: list[Candidate] = []
    for p, page in enumerate(doc.pages):
        for li, line in enumerate(page.lines):
            if within is not None and (p, li) not in within:
                continue
            parsed = parse_value(line.text, spec, config)
            if parsed is not None:
                confidence = _SCAN_CONFIDENCE * (1.0 if parsed.exact else 0.8) * line.confidence
                coded = spec.type == "date" and (
                    in_code(line.text, parsed.text) or glued_day_month(parsed.text)
                )
                (codes if coded else found).append(Candidate(parsed, confidence, p, line.text))
                if spec.type != "date":
                    return found[0]
    found = found or codes
    if not found:
        return None
    return plausible(found, [int(str(c.parsed.value)[:4]) for c in found])[0]


def best_of(candidates: list[Candidate]) -> Candidate | None:
    if not candidates:
        return None
    by_value: dict[Any, Candidate] = {}
    for cand in candidates:  # document order breaks ties: the first occurrence wins
        key = cand.parsed.value
        if key not in by_value or cand.confidence > by_value[key].confidence:
            by_value[key] = cand
    ranked = sorted(by_value.values(), key=lambda c: -c.confidence)
    best = ranked[0]
    if len(ranked) > 1 and ranked[1].confidence >= _AMBIGUOUS_RATIO * best.confidence:
        return replace(best, confidence=best.confidence * _AMBIGUOUS_FACTOR, doubted=True)
    return best
