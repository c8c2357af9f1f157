"""Amount consistency: the total that agrees with the other amounts on the page wins.

Labels alone often offer several totals ("Total excl. tax", "Total", "Total Qty", a rounded
and an unrounded total). For a field of the ``grand_total`` concept the engine checks its
candidates against amounts read under other built-in labels:

- tendered minus change: on a receipt, cash given less change returned is what was due;
- net plus tax: when one candidate plus a tax amount on the page equals another candidate,
  the larger one is the gross total.

A candidate that passes a check is chosen and its confidence raised (x :data:`AGREE`, at most
1.0): two amounts agree. Without a passing check the engine's usual choice stands.

Amounts printed with a sign that only says "deducted" (``Prepaid -50,00``, ``Allowances
-9,07``) take their value from the equation they belong to (:data:`DERIVED`): prepaid =
gross - due, allowances = lines + charges - net. The printed amount must agree in size, so
the equation only settles the sign.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from fieldwise.service.engines.extraction.candidate import Candidate
from fieldwise.service.engines.extraction.vocabulary import CONCEPTS

__all__ = ["AGREE", "DERIVED", "TOLERANCE", "consistent_amount", "consistent_total"]

AGREE = 1.2
TOLERANCE = 0.005
_TENDERED = ("Cash", "Cash tendered", "Tendered", "Amount tendered", "Received", "Bar", "Tunai")
_CHANGE = ("Change", "Change due", "Rückgeld", "Monnaie rendue", "Wisselgeld", "Cambio", "Baki")

Amounts = Callable[[Sequence[str]], list[float]]


def _number(candidate: Candidate) -> float | None:
    value = candidate.parsed.value
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _agreeing(candidates: list[Candidate], target: float) -> Candidate | None:
    matching = [
        c for c in candidates if (n := _number(c)) is not None and abs(n - target) <= TOLERANCE
    ]
    if not matching:
        return None
    best = max(matching, key=lambda c: c.confidence)
    return replace(best, confidence=min(1.0, best.confidence * AGREE))


def consistent_total(candidates: list[Candidate], amounts: Amounts) -> Candidate | None:
    """The candidate total that other amounts on the page confirm, or None."""
    if not candidates:
        return None
    tendered = [a for a in amounts(_TENDERED) if a > 0]
    change = [a for a in amounts(_CHANGE) if a >= 0]
    for given in tendered:
        for back in change:
            if given > back and (found := _agreeing(candidates, given - back)):
                return found
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
