"""Amount consistency: the total that agrees with the other amounts on the page wins.

Labels alone often offer several totals ("Total excl. tax", "Total", "Total Qty", a rounded
and an unrounded total). For a field of the ``grand_total`` concept the engine checks its
candidates against amounts read under other built-in labels:

- tendered minus change: on a receipt, cash given less change returned is what was due;
- net plus tax: when one candidate plus a tax amount on the page equals another candidate,
  the larger one is the gross total.

A candidate that passes a check is chosen and its confidence raised (x :data:`AGREE`, at most
1.0): two amounts agree. When no candidate passes but tendered minus change is an amount the
page prints elsewhere (a rounded total on a line of its own, "RM 60.30" under "Total 60.31" and
"Rounding -0.01"; a total whose label OCR garbled), that printed amount is the total, at
:data:`PRINTED` confidence: the equation, not a label, found it. When no label offered a total
at all and no change is printed, the cash tendered is the total the same way (paid exactly: a
"Total" whose amount stands only beside "Cash"). Without a passing check the engine's usual
choice stands.

Amounts printed with a sign that only says "deducted" (``Prepaid -50,00``, ``Allowances
-9,07``) take their value from the equation they belong to (:data:`DERIVED`): prepaid =
gross - due, allowances = lines + charges - net. The printed amount must agree in size, so
the equation only settles the sign.

The parts of the gross total are chosen the same way (:func:`consistent_part`): a ``tax_total``
candidate that is gross - net on the page, or rate x net at a printed percentage, wins over
the tax basis, the rate or an identifier printed under a tax label; a ``net_total`` candidate
that is gross - tax wins over a line amount. The sums are of amounts the page prints, so an
amount in the wrong role rarely satisfies them by chance; nothing is chosen without one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from fieldwise.service.engines.extraction.candidate import Candidate
from fieldwise.service.engines.extraction.normalize import parse_amount
from fieldwise.service.engines.extraction.vocabulary import CONCEPTS
from fieldwise.service.engines.parsing import ParsedDocument

__all__ = [
    "AGREE",
    "DERIVED",
    "PARTS",
    "TOLERANCE",
    "consistent_amount",
    "consistent_part",
    "consistent_total",
    "printed_amounts",
]

AGREE = 1.2
PRINTED = 0.6
TOLERANCE = 0.005
_TENDERED = (
    "Cash", "Cash tendered", "Tendered", "Amount tendered", "Received", "Cash received",
    "Paid amount", "Amount paid", "Bar", "Gegeben", "Espèces", "Tunai",
)  # fmt: skip
_CHANGE = ("Change", "Change due", "Rückgeld", "Monnaie rendue", "Wisselgeld", "Cambio", "Baki")

Amounts = Callable[[Sequence[str]], list[float]]


def _number(candidate: Candidate) -> float | None:
    value = candidate.parsed.value
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


_DECIMAL = re.compile(r"\d[.,]\d{2}(?!\d)")


def printed_amounts(doc: ParsedDocument) -> list[Candidate]:
    """Every amount with a decimal part that the document prints, word by word, in reading
    order (what an equation may find when no label offered the amount)."""
    found = []
    for p, page in enumerate(doc.pages):
        for line in page.lines:
            for word in line.words:
                parsed = parse_amount(word.text) if _DECIMAL.search(word.text) else None
                if parsed is not None:
                    found.append(Candidate(parsed, word.confidence, p, word.text))
    return found


def _equal(candidates: list[Candidate], target: float) -> list[Candidate]:
    """``candidates`` equal to ``target``, in their order."""
    return [c for c in candidates if (n := _number(c)) is not None and abs(n - target) <= TOLERANCE]


def _agreeing(candidates: list[Candidate], target: float) -> Candidate | None:
    matching = _equal(candidates, target)
    if not matching:
        return None
    best = max(matching, key=lambda c: c.confidence)
    return replace(best, confidence=min(1.0, best.confidence * AGREE))


def consistent_total(
    candidates: list[Candidate],
    amounts: Amounts,
    printed: Callable[[], list[Candidate]] | None = None,
) -> Candidate | None:
    """The candidate total that other amounts on the page confirm, or None.

    ``printed`` gives every amount the page prints (with a decimal part), for a total that no
    label offered but tendered minus change confirms."""
    tendered = [a for a in amounts(_TENDERED) if a > 0]
    change = [a for a in amounts(_CHANGE) if a >= 0]
    paid = [given - back for given in tendered for back in change if given >= back]
    for target in paid:
        if target > 0 and (found := _agreeing(candidates, target)):
            return found
    # no change printed: what was tendered is what was due, when no label offered a total
    # (a "Total" whose amount stands only beside "Cash" on the line below)
    exact = tendered if not change and not candidates else []
    if printed is not None and (paid or exact):
        on_page = printed()
        for target in paid or exact:
            match = _equal(on_page, target) if target > 0 else []
            if match:
                return replace(match[0], confidence=PRINTED * match[0].confidence)
    if not candidates:
        return None
    values = sorted({n for c in candidates if (n := _number(c)) is not None})
    if len(values) < 2:
        return None
    for tax in amounts(CONCEPTS["tax_total"]):
        for low in values:
            if tax > 0 and low > 0 and (found := _agreeing(candidates, low + tax)):
                return found
    return None


# concept -> (concepts added, concepts subtracted) whose sum gives its value
DERIVED: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "prepaid_total": (("grand_total",), ("amount_due",)),
    "allowance_total": (("line_total", "charge_total"), ("net_total",)),
}


def consistent_amount(
    concept: str, candidates: list[Candidate], amounts: Amounts
) -> Candidate | None:
    """A candidate of a :data:`DERIVED` concept with the sign its equation gives, or None."""
    if concept not in DERIVED or not candidates:
        return None
    plus, minus = DERIVED[concept]
    parts: list[list[float]] = [amounts(CONCEPTS[c]) for c in (*plus, *minus)]
    optional = {"charge_total"}  # often not printed when there are none
    total = 0.0
    for name, found in zip((*plus, *minus), parts, strict=True):
        if not found:
            if name in optional:
                continue
            return None
        total += found[0] if name in plus else -found[0]
    for candidate in sorted(candidates, key=lambda c: -c.confidence):
        number = _number(candidate)
        if number is not None and abs(abs(number) - abs(total)) <= TOLERANCE:
            parsed = replace(candidate.parsed, value=round(total, 2))
            return replace(
                candidate, parsed=parsed, confidence=min(1.0, candidate.confidence * AGREE)
            )
    return None


# concept -> (the whole, the other part): concept = whole - other part
PARTS: dict[str, tuple[str, str]] = {
    "tax_total": ("grand_total", "net_total"),
    "net_total": ("grand_total", "tax_total"),
}
# how many of the best supported amounts of each concept the equations try
_TRIED = 6
# rate x net is rounded to cents per tax line: allow a cent of difference
_ROUNDED = 0.011


def _by_size(candidates: list[Candidate], target: float, tolerance: float) -> Candidate | None:
    """The best supported candidate equal in size to ``target`` (signs follow the document
    type's convention, not the equation), its confidence raised."""
    matching = [
        c
        for c in candidates
        if (n := _number(c)) is not None and abs(abs(n) - abs(target)) <= tolerance
    ]
    if not matching:
        return None
    best = max(matching, key=lambda c: c.confidence)
    return replace(best, confidence=min(1.0, best.confidence * AGREE))


def consistent_part(
    concept: str,
    candidates: list[Candidate],
    amounts: Amounts,
    rates: Callable[[], list[float]] | None = None,
) -> Candidate | None:
    """A candidate of a :data:`PARTS` concept that the page's totals add up to, or None.

    ``rates`` gives the percentages the page prints under rate labels: a tax candidate equal
    to rate x net (to the cent) is also confirmed when no gross total is found."""
    if concept not in PARTS or not candidates:
        return None
    whole_concept, other_concept = PARTS[concept]
    wholes = [a for a in amounts(CONCEPTS[whole_concept]) if a != 0][:_TRIED]
    others = amounts(CONCEPTS[other_concept])[:_TRIED]
    for whole in wholes:
        for other in others:
            target = abs(whole) - abs(other)
            # a zero part says nothing: "Total" also reads the net amount on many pages
            if abs(target) > TOLERANCE and (found := _by_size(candidates, target, TOLERANCE)):
                return found
    if concept == "tax_total" and rates is not None:
        for rate in rates():
            for net in others:
                target = abs(net) * rate / 100
                found = _by_size(candidates, target, _ROUNDED) if target > TOLERANCE else None
                if found is not None:
                    return found
    return None
