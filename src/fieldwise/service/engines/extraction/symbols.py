"""Currency inference: the code an enum field takes from the marks and codes beside amounts.

Used by ``"infer_from_symbols": true`` when no label matched. Every amount printed with a
currency ("€1,200.00", "100,00 USD", "RM 29.70", "₹500") votes for its code, and so does a
code in a column or total heading ("Total (EUR)", "Summe brutto (in EURO)"); codes the field
does not allow are ignored. Inference is weaker evidence than a label, so its confidence is at
most 0.85 (an ISO code), 0.8 for a specific mark ("€", "£", "RM"...) and 0.7 for "$" or "¥"
(which dollar, which yen?), times the winner's share of the votes and the OCR score of its
first line.
"""

from __future__ import annotations

import functools
import re

from fieldwise.service.engines.extraction.candidate import Candidate
from fieldwise.service.engines.extraction.config import FieldSpec
from fieldwise.service.engines.extraction.normalize import Parsed
from fieldwise.service.engines.extraction.vocabulary import CURRENCY_SYMBOLS
from fieldwise.service.engines.parsing import ParsedDocument

__all__ = ["infer_currency"]

_AMBIGUOUS = {"$", "¥"}
_MARK_WEIGHT, _AMBIGUOUS_WEIGHT, _CODE_WEIGHT = 0.8, 0.7, 0.85
_NUMBER = r"\d[\d.,'\u00a0\u202f]*"
_HEADING = re.compile(r"\((?:in\s+)?(?P<code>[A-Z]{3})(?:O)?\)|\bin\s+(?P<code2>[A-Z]{3})\b")


@functools.cache
def _beside() -> re.Pattern[str]:
    marks = "|".join(re.escape(m) for m in sorted(CURRENCY_SYMBOLS, key=len, reverse=True))
    return re.compile(
        rf"(?P<pre>{marks}|\b[A-Z]{{3}})\s?-?{_NUMBER}"
        rf"|(?<![\w.,]){_NUMBER}\s?(?P<post>{marks}|[A-Z]{{3}}\b)"
    )


def _code(mark: str) -> str:
    if mark in CURRENCY_SYMBOLS:
        return CURRENCY_SYMBOLS[mark] or ""
    return mark.upper()


def infer_currency(doc: ParsedDocument, spec: FieldSpec) -> Candidate | None:
    """The allowed code most amounts in ``doc`` are printed with, or None."""
    allowed = {v.upper(): v for v in spec.values}
    votes: dict[str, int] = {}
    weight: dict[str, float] = {}
    first: dict[str, tuple[int, str, float]] = {}
    for p, page in enumerate(doc.pages):
        for line in page.lines:
            found: list[tuple[str, float | None]] = [
                (m.group("pre") or m.group("post"), None) for m in _beside().finditer(line.text)
            ]
            found += [
                (m.group("code") or m.group("code2"), _CODE_WEIGHT)
                for m in _HEADING.finditer(line.text)
            ]
            for mark, strength in found:
                value = allowed.get(_code(mark))
                if value is None:
                    continue
                if strength is None:
                    if mark in _AMBIGUOUS:
                        strength = _AMBIGUOUS_WEIGHT
                    elif mark in CURRENCY_SYMBOLS:
                        strength = _MARK_WEIGHT
                    else:
                        strength = _CODE_WEIGHT
                votes[value] = votes.get(value, 0) + 1
                weight[value] = max(weight.get(value, 0.0), strength)
                first.setdefault(value, (p, line.text, line.confidence))
    if not votes:
        return None
    best = max(votes, key=lambda v: (votes[v], weight[v]))
    share = votes[best] / sum(votes.values())
    index, text, ocr = first[best]
    return Candidate(Parsed(best, text, False), weight[best] * share * ocr, index, text)
