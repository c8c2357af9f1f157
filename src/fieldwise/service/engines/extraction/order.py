"""``"date_order": "auto"`` resolved for one document, by the rules engine and by trained
versions alike: the order the document's unambiguous numeric dates vote for
(:func:`~fieldwise.service.engines.extraction.dates.voted_date_order`); without a majority, the
order under which its issue date is not after its due date, if only one makes it so (an
invoice is issued before it falls due); else DMY, the engine's default."""

from __future__ import annotations

from dataclasses import replace

from fieldwise.service.engines.extraction.config import ExtractionConfig, FieldSpec
from fieldwise.service.engines.extraction.dates import AUTO_FALLBACK, voted_date_order
from fieldwise.service.engines.extraction.reading import best_of, label_candidates
from fieldwise.service.engines.extraction.vocabulary import CONCEPTS
from fieldwise.service.engines.parsing import ParsedDocument

__all__ = ["DUE_DATE", "ISSUE_DATE", "document_date_order"]

#: the document's issue and due dates as the built-in vocabularies label them
ISSUE_DATE = FieldSpec("_issue", "date", CONCEPTS["issue_date"], vocabulary="issue_date")
DUE_DATE = FieldSpec("_due", "date", CONCEPTS["due_date"], vocabulary="due_date")


def document_date_order(doc: ParsedDocument, config: ExtractionConfig) -> str:
    """``config.date_order`` itself unless it is "auto"; then DMY or MDY for ``doc``."""
    if config.date_order != "auto":
        return config.date_order
    voted = voted_date_order(doc)
    if voted is not None:
        return voted
    fits = []
    for order in ("DMY", "MDY"):
        ordered = replace(config, date_order=order)
        issue, due = (
            best_of([c for g in label_candidates(doc, spec, ordered, None) for c in g])
            for spec in (ISSUE_DATE, DUE_DATE)
        )
        if (
            issue is not None
            and due is not None
            and str(issue.parsed.value) <= str(due.parsed.value)
        ):
            fits.append(order)
    return fits[0] if len(fits) == 1 else AUTO_FALLBACK
