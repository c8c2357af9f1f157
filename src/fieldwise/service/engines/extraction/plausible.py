"""Date plausibility: a date whose year no other date of the document comes near is suspect.

OCR glues digits ("06/01/1812.17" read as 1812, a "1709" from a time) and labels sit near
order, delivery and period dates. A document's real dates cluster within a few years; a
candidate whose year lies more than :data:`SPAN` years from every other date read on the
document, while other dates do agree with each other, is dropped. When nothing agrees (one
date, or all far apart) nothing is dropped: there is no evidence either way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fieldwise.service.engines.extraction.candidate import Candidate
from fieldwise.service.engines.extraction.normalize import Parsed
from fieldwise.service.engines.parsing import ParsedDocument

__all__ = ["SPAN", "document_years", "plausible"]

SPAN = 3


def document_years(doc: ParsedDocument, read: Callable[[str], Parsed | None]) -> list[int]:
    """The year of the first date ``read`` finds on each line of ``doc``."""
    years = []
    for page in doc.pages:
        for line in page.lines:
            parsed = read(line.text)
            if parsed is not None:
                years.append(int(str(parsed.value)[:4]))
    return years


def _supported(year: int, years: Sequence[int]) -> bool:
    """Whether another date's year (one occurrence of ``year`` itself aside) is near it."""
    others = list(years)
    if year in others:
        others.remove(year)
    return any(abs(year - y) <= SPAN for y in others)


def plausible(
    candidates: list[Candidate], years: Sequence[int], *, strict: bool = False
) -> list[Candidate]:
    """``candidates`` without the dates no other date supports, when some date is supported;
    all of them otherwise. Unless ``strict``, all of them too when none would be left
    (``strict``: a missed value is better than an implausible one)."""
    if not any(_supported(y, years) for y in years):
        return candidates
    kept = [c for c in candidates if _supported(int(str(c.parsed.value)[:4]), years)]
    return kept if kept or strict else candidates
