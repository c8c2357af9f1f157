"""The rules engine: each field's value from labels, positions, types and tables.

Confidence of a value is the product of independent pieces of evidence, each in 0..1:

- the label match: rapidfuzz score mapped from 50..100 to 0..1; when the value is in another
  cell, the score is capped by how well the label matches its whole cell (floor 80 %);
- the position: same cell after the label 1.0, next column 0.97, line below 0.85, further 0.7;
- the type: a validated value alone in its snippet 1.0, with stray text around it 0.85, a free
  string nothing validates 0.92;
- the OCR score of the words (1.0 for text layers);
- ambiguity: when another candidate with a *different* value scores within 90 % of the best,
  the best is multiplied by 0.7 (the layout does not tell them apart);
- with no label at all, a value found by scanning for its type (dates, enum values, patterns)
  starts at 0.35;
- an array field: header match x the share of cells its rows fill, x 0.8 when rows wrap.

Opt-in strategies (a config without their keys extracts exactly as before):
``"strategy": "letterhead"`` (:mod:`.letterhead`), ``"seller"`` / ``"buyer"``
(:mod:`.parties`), ``"address"`` (:mod:`.addresses`), ``"infer_from_symbols": true``
(:mod:`.symbols`) and ``"date_order": "auto"`` (:mod:`.dates`), each with its own confidence.
``"occurrence": "first"`` takes the first label in reading order that has a value (x 0.85
when a later label had a stronger, different value). ``"section"`` reads a field only inside
the blocks its headings open (:mod:`.sections`). ``"vocabulary": "<concept>"`` adds built-in
labels in seven languages (:mod:`.vocabulary`) and turns on the concept's checks: totals and
deducted amounts against the other amounts, tax and net as parts of the gross total
(:mod:`.consistency`), a due date never before the issue date; ``"percent": true`` reads
rates. ``"abstain_below"`` (top level) leaves out a field whose confidence is below it, and
``"abstain_doubted"`` one whose candidates disagreed: a missed cell rather than a likely
wrong one. ``"abstain_unlikely": p`` (top level, off by default) leaves out a field whose
calibrated probability of being right is below ``p`` (:mod:`.calibration`: a model fitted on
the tune sets over the strategy that found the value, its raw confidence, the candidates and
their agreement, a consistency check's confirmation, the field's type, OCR); with it set,
each page-read field's metadata carries ``"p_right"`` and the ``"evidence"`` it rests on.
``"credit_note_sign"`` (``as_printed``, ``positive``, ``negative``) signs a credit note's
totals (:mod:`.credit`). ``"e_invoice": true`` (top level, off by default) takes each
field the invoice XML a PDF embeds holds from that XML (:mod:`.einvoice`), confidence 1.0,
its metadata saying ``"source": "embedded_xml"`` and the element path; every other field is
read from the pages and says ``"source": "page"``. Per field the order is: labels; then
symbol inference; then the scan for a self-validating type (fields without labels); then the
strategy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from fieldwise.service.engines.extraction.addresses import address
from fieldwise.service.engines.extraction.calibration import (
    Calibration,
    evidence_of,
    load_calibration,
)
from fieldwise.service.engines.extraction.candidate import Candidate
from fieldwise.service.engines.extraction.config import ExtractionConfig, FieldSpec
from fieldwise.service.engines.extraction.consistency import (
    PARTS,
    consistent_amount,
    consistent_part,
    consistent_total,
    printed_amounts,
)
from fieldwise.service.engines.extraction.credit import SIGNED_ROLES, is_credit_note, signed
from fieldwise.service.engines.extraction.decimals import rejoin_decimals
from fieldwise.service.engines.extraction.einvoice import XmlValue, read_invoice, term_of
from fieldwise.service.engines.extraction.glued import unglue
from fieldwise.service.engines.extraction.issue import not_after, prefer_header
from fieldwise.service.engines.extraction.labels import LabelHit, find_labels, norm
from fieldwise.service.engines.extraction.letterhead import letterhead
from fieldwise.service.engines.extraction.order import DUE_DATE, ISSUE_DATE, document_date_order
from fieldwise.service.engines.extraction.output import Output
from fieldwise.service.engines.extraction.parties import other_party, party
from fieldwise.service.engines.extraction.patterns import PatternTimeout, pattern_budget
from fieldwise.service.engines.extraction.plausible import document_years, plausible
from fieldwise.service.engines.extraction.reading import (
    best_of,
    first_read,
    hit_groups,
    label_candidates,
    parse_value,
    scan,
    section_within,
)
from fieldwise.service.engines.extraction.roles import role_of
from fieldwise.service.engines.extraction.symbols import infer_currency
from fieldwise.service.engines.extraction.tables import read_table
from fieldwise.service.engines.extraction.vocabulary import CONCEPTS
from fieldwise.service.engines.parsing import ParsedDocument

__all__ = ["extract"]

_HEADER_SHARE = 0.5  # the header block: the top half of page 1


def _amounts(doc: ParsedDocument, labels: Sequence[str], config: ExtractionConfig) -> list[float]:
    """Every amount read under ``labels``, the best supported first (for consistency checks)."""
    spec = FieldSpec("_check", "currency", tuple(labels))
    found = [c for group in label_candidates(doc, spec, config, None) for c in group]
    found.sort(key=lambda c: -c.confidence)  # stable: reading order among equals
    return [float(c.parsed.value) for c in found if isinstance(c.parsed.value, float)]


def _consistent(
    doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig, flat: list[Candidate]
) -> Candidate | None:
    """The candidate the page's other amounts confirm (see consistency.py), or None."""

    def amounts(labels: Sequence[str]) -> list[float]:
        return _amounts(doc, labels, config)

    def rates() -> list[float]:
        rate = FieldSpec("_rate", "number", CONCEPTS["vat_rate"], percent=True)
        found = [c for group in label_candidates(doc, rate, config, None) for c in group]
        found.sort(key=lambda c: -c.confidence)
        return [float(c.parsed.value) for c in found if isinstance(c.parsed.value, float)]

    if spec.vocabulary == "grand_total":
        return consistent_total(flat, amounts, lambda: printed_amounts(doc))
    if spec.vocabulary in PARTS:
        return consistent_part(spec.vocabulary, flat, amounts, rates)
    if spec.vocabulary is not None:
        return consistent_amount(spec.vocabulary, flat, amounts)
    return None


def _not_before_issue(
    doc: ParsedDocument, config: ExtractionConfig, flat: list[Candidate]
) -> list[Candidate]:
    """A due date is never before the issue date: drop candidates that are (a period's
    start, an order date), unless nothing would be left."""
    issue = best_of([c for group in label_candidates(doc, ISSUE_DATE, config, None) for c in group])
    if issue is None:
        return flat
    kept = [c for c in flat if str(c.parsed.value) >= str(issue.parsed.value)]
    return kept or flat


def _issue_date(
    doc: ParsedDocument,
    config: ExtractionConfig,
    hit_groups: list[tuple[LabelHit, list[Candidate]]],
) -> list[Candidate]:
    """An issue date's candidates weighed by the header they stand in and the labels that
    name them, without those after the due date (see issue.py)."""
    header = [
        hit
        for hit in find_labels(doc, CONCEPTS["invoice_number"], config.label_threshold)
        if hit.page == 0
        and doc.pages[0].lines[hit.line].box.y0 < _HEADER_SHARE * doc.pages[0].height
    ]
    flat = prefer_header([(c, hit) for hit, group in hit_groups for c in group], doc, header)
    due = best_of([c for group in label_candidates(doc, DUE_DATE, config, None) for c in group])
    return not_after(flat, None if due is None else str(due.parsed.value))


@dataclass(frozen=True)
class _Choice:
    """A field's value and how it was chosen: the strategy (see calibration.STRATEGIES) and
    the label candidates it was chosen among."""

    best: Candidate
    strategy: str
    candidates: tuple[Candidate, ...] = ()


def _labelled(
    doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig, within: Any
) -> _Choice | None:
    """The value the field's labels give, or None."""
    hits = hit_groups(doc, spec, config, within)
    groups = [group for _, group in hits]
    flat = [c for group in groups for c in group]
    if spec.occurrence == "first":
        best = first_read(groups)
        return None if best is None else _Choice(best, "first", tuple(flat))
    if spec.type == "date" and role_of(spec.vocabulary, spec.labels) == "issue_date":
        flat = _issue_date(doc, config, hits)
    if spec.type == "date" and flat:
        years = document_years(doc, lambda t: parse_value(t, spec, config))
        flat = plausible(flat, years, strict=True)
    if spec.vocabulary == "due_date" and spec.type == "date":
        flat = _not_before_issue(doc, config, flat)
    if spec.vocabulary is not None and spec.type in ("currency", "number"):
        confirmed = _consistent(doc, spec, config, flat)
        if confirmed is not None:
            return _Choice(confirmed, "consistent", tuple(flat))
    best = best_of(flat)
    return None if best is None else _Choice(best, "label", tuple(flat))


def _field(doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig) -> _Choice | None:
    within = section_within(doc, spec, config)
    chosen = _labelled(doc, spec, config, within) if spec.labels else None
    seller = _sellers_name(doc, spec, config) if spec.strategy == "buyer" else None
    read = None if chosen is None else norm(str(chosen.best.parsed.value))
    if seller is not None and read == norm(seller):
        chosen = None  # the buyer's label read the seller's block: a buyer is not the seller
    if chosen is not None:
        return chosen
    # the fallbacks in order, each with the strategy name its evidence reports
    best, how = None, ""
    if spec.infer_from_symbols:
        best, how = infer_currency(doc, spec), "symbols"
    if best is None and not spec.labels:
        best, how = scan(doc, spec, config, within), "scan"
    if best is None and spec.strategy == "letterhead":
        best, how = letterhead(doc, spec, config), "letterhead"
    if best is None and spec.strategy in ("seller", "buyer"):
        narrowed = replace(spec, exclude=(*spec.exclude, seller)) if seller else spec
        best, how = party(doc, narrowed, config), "party"
    if best is None and spec.strategy == "address":
        best, how = address(doc, spec, config), "address"
    return None if best is None else _Choice(best, how)


def _sellers_name(doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig) -> str | None:
    """The seller's name a buyer field must not take: as the config's seller field reads it,
    else as the seller strategy does (see parties.py)."""
    sellers = [f for f in config.fields if f.strategy == "seller" and f.type == "string"]
    if sellers:
        found = _field(doc, sellers[0], config)
        return None if found is None else str(found.best.parsed.value)
    return other_party(doc, spec, config)


def _array(doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig, out: Output) -> None:
    table = read_table(doc, spec, config)
    if table is None or not table.rows:
        return
    rows: list[dict[str, Any]] = []
    for index, row in enumerate(table.rows):
        rows.append({name: parsed.value for name, (parsed, _) in row.cells.items()})
        for name, (parsed, confidence) in row.cells.items():
            out.meta(f"{spec.name}.{index}.{name}", confidence, row.page + 1, parsed.text)
    out.put(spec.name, rows, table.confidence, table.page + 1, table.header_text)


def _abstains(best: Candidate, config: ExtractionConfig) -> bool:
    """Leave the value out: its confidence is under ``abstain_below``, or the engine's own
    candidates disagreed and the config abstains on doubt (a missed cell, not a wrong one)."""
    return best.confidence < config.abstain_below or (config.abstain_doubted and best.doubted)


def _judged(
    choice: _Choice, spec: FieldSpec, model: Calibration, below: float, scanned: bool
) -> dict[str, Any] | None:
    """``abstain_unlikely``: the calibrated P(right) of the choice and the evidence it rests
    on (for the field's metadata), or None when P(right) is under ``below``."""
    evidence = evidence_of(
        choice.best,
        choice.candidates,
        choice.strategy,
        field_type=spec.type,
        has_role=role_of(spec.vocabulary, spec.labels) is not None,
        scanned=scanned,
    )
    p_right = model.probability(evidence)
    if p_right < below:
        return None
    return {"p_right": round(p_right, 4), "evidence": evidence.to_json()}


def _signed(spec: FieldSpec, value: Any) -> bool:
    """Whether a credit note's sign convention applies to this field's value."""
    role = role_of(spec.vocabulary, spec.labels)
    return spec.type == "currency" and isinstance(value, float) and role in SIGNED_ROLES


def _xml_value(spec: FieldSpec, found: XmlValue) -> Any:
    """The XML's value as the field's type has it, or None when the type cannot hold it."""
    value = found.value
    if spec.type in ("currency", "number"):
        try:
            return float(value)
        except ValueError:
            return None
    if spec.type == "enum":
        return value if not spec.values or value in spec.values else None
    if spec.type in ("string", "date"):
        return str(value)
    return None


def _from_xml(doc: ParsedDocument, config: ExtractionConfig) -> dict[str, tuple[Any, XmlValue]]:
    """``e_invoice``: each field's value in the embedded invoice XML, by field name."""
    if not config.e_invoice or doc.invoice_xml is None:
        return {}
    terms = read_invoice(doc.invoice_xml)
    found: dict[str, tuple[Any, XmlValue]] = {}
    for spec in config.fields:
        term = term_of(spec) if spec.type != "array" else None
        if term is None or term not in terms:
            continue
        value = _xml_value(spec, terms[term])
        if value is not None:
            found[spec.name] = (value, terms[term])
    return found


def extract(
    doc: ParsedDocument,
    config: ExtractionConfig,
    *,
    confidence_threshold: float | None = None,
    pattern_seconds: float | None = None,
    calibration: Calibration | None = None,
) -> dict[str, Any]:
    """Run a version config over a parsed document; returns the "Processor run output".

    ``{"value": {...}, "metadata": {"<dotted path>": {"confidence", "page", "text",
    "needs_review"}}}``; fields not found are omitted. ``needs_review`` is true when a
    ``confidence_threshold`` is given and the confidence is below it. ``python`` engine
    configs call their entrypoint (see :mod:`fieldwise.service.engines.extraction.python_engine`).
    All field patterns together may take ``pattern_seconds`` (default
    :data:`~fieldwise.service.engines.extraction.patterns.DEFAULT_SECONDS`); past that,
    :class:`~fieldwise.service.engines.extraction.patterns.PatternTimeout` names the field.
    With ``abstain_unlikely`` set, each page-read field's metadata adds ``p_right`` (by
    ``calibration``, default the shipped model of :mod:`.calibration`) and its ``evidence``.
    """
    if config.engine == "python":
        from fieldwise.service.engines.extraction.python_engine import run_python

        return run_python(doc, config, confidence_threshold=confidence_threshold)
    out = Output(confidence_threshold)
    doc = unglue(doc)  # "Rechnungsnummer:471102": the label and its value apart
    doc = rejoin_decimals(doc)  # OCR's "RM 170. 00": one amount again
    if config.date_order == "auto":
        config = replace(config, date_order=document_date_order(doc, config))
    xml = _from_xml(doc, config)
    # a credit note's amounts take the sign the config declares (never the XML's: it is the
    # invoice itself)
    credit = config.credit_note_sign != "as_printed" and is_credit_note(doc)
    # with the option on, every field says where it was read: the XML or the pages
    on_page = {"source": "page"} if config.e_invoice else None
    # abstain_unlikely: the model and the threshold of P(right) under which a value is left out
    calibrated = None
    if config.abstain_unlikely is not None:
        calibrated = (calibration or load_calibration(), config.abstain_unlikely)
    scanned = any(line.confidence < 1.0 for page in doc.pages for line in page.lines)
    with pattern_budget(pattern_seconds):
        for spec in config.fields:
            if spec.name in xml:
                value, found = xml[spec.name]
                source = {"source": "embedded_xml", "xml_path": found.path}
                # the XML is the invoice itself, not a reading of it: full confidence; it
                # belongs to the whole document, so its page is the first
                out.put(spec.name, value, 1.0, 1, str(found.value), source)
                continue
            try:
                if spec.type == "array":
                    _array(doc, spec, config, out)
                    continue
                choice = _field(doc, spec, config)
            except PatternTimeout as exc:
                raise PatternTimeout(f"field {spec.name!r}: {exc}") from None
            if choice is None or _abstains(choice.best, config):
                continue
            best = choice.best
            provenance = on_page
            if calibrated is not None:
                judged = _judged(choice, spec, *calibrated, scanned)
                if judged is None:
                    continue  # unlikely to be right: a missed cell rather than a wrong one
                provenance = {**(on_page or {}), **judged}
            value = best.parsed.value
            if credit and _signed(spec, value):
                value = signed(float(value), config.credit_note_sign)
            out.put(spec.name, value, best.confidence, best.page + 1, best.text, provenance)
    return out.result()
