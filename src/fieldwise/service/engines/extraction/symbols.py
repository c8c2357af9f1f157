"""Currency inference: the code an enum field takes from the symbols and codes beside amounts.

Used by ``"infer_from_symbols": true`` when no label matched. Every amount printed with a
currency ("€1,200.00", "100,00 USD", "GBP 73.00") votes for its code; codes the field does not
allow are ignored. Inference is weaker evidence than a label, so its confidence is at most
0.85 (an ISO code beside the amounts), 0.8 for "€" or "£" and 0.7 for "$" (which dollar?),
times the winner's share of the votes and the OCR score of its first line.
"""

from __future__ import annotations

import re

from fieldwise.service.engines.extraction.candidate import Candidate
from fieldwise.service.engines.extraction.config import FieldSpec
from fieldwise.service.engines.extraction.normalize import Parsed
from fieldwise.service.engines.parsing import ParsedDocument

__all__ = ["infer_currency"]

_SYMBOLS = {"€": "EUR", "$": "USD", "£": "GBP"}
_WEIGHT = {"€": 0.8, "£": 0.8, "$": 0.7}
_CODE_WEIGHT = 0.85
_NUMBER = r"\d[\d.,'\u00a0\u202f]*"
_BESIDE = re.compile(
    rf"(?P<pre>[€$£]|\b[A-Z]{{3}})\s?-?{_NUMBER}|(?<![\w.,]){_NUMBER}\s?(?P<post>[€$£]|[A-Z]{{3}}\b)"
)


def infer_currency(doc: ParsedDocument, spec: FieldSpec) -> Candidate | None:
    """The allowed code most amounts in ``doc`` are printed with, or None."""
    allowed = {v.upper(): v for v in spec.values}
    votes: dict[str, int] = {}
    weight: dict[str, float] = {}
    first: dict[str, tuple[int, str, float]] = {}
    for p, page in enumerate(doc.pages):
        for line in page.lines:
            for match in _BESIDE.finditer(line.text):
                mark = match.group("pre") or match.group("post")
                value = allowed.get(_SYMBOLS.get(mark, mark).upper())
                if value is None:
                    continue
                votes[value] = votes.get(value, 0) + 1
                strength = _WEIGHT.get(mark, _CODE_WEIGHT)
                weight[value] = max(weight.get(value, 0.0), strength)
                first.setdefault(value, (p, line.text, line.confidence))
    if not votes:
        return None
    best = max(votes, key=lambda v: (votes[v], weight[v]))
    share = votes[best] / sum(votes.values())
    index, text, ocr = first[best]
    return Candidate(Parsed(best, text, False), weight[best] * share * ocr, index, text)
