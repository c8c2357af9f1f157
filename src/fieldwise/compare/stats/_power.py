"""Power of the paired McNemar test (Connor 1987): documents needed, and the smallest effect
that can be detected with the documents at hand.

Connor, R. J. (1987). "Sample size for testing differences in proportions for the paired-sample
design." Biometrics 43(1), 207-211. With discordance ``psi = p10 + p01`` (the share of documents
whose outcome differs between the versions), effect ``delta = p01 - p10``, two-sided level
``alpha`` and power ``1 - beta``::

    n = (z_{1-alpha/2} * sqrt(psi) + z_{1-beta} * sqrt(psi - delta^2))^2 / delta^2

The *minimum detectable effect* (MDE) at ``n`` documents is the ``delta`` that solves this
equation. An effect ``delta`` needs at least ``delta`` discordance (every changed document
moving the same way), so the MDE uses ``max(psi, delta)``: with no flips observed it is the
effect that would show if every changed document changed the same way.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fieldwise.compare.score._frame import flatten
from fieldwise.compare.score._normalize import is_empty
from fieldwise.compare.stats._distributions import normal_quantile

__all__ = [
    "PlanRow",
    "connor_sample_size",
    "document_support",
    "minimum_detectable_effect",
    "plan_fields",
]


def _z(alpha: float, power: float) -> tuple[float, float]:
    return normal_quantile(1 - alpha / 2), normal_quantile(power)


def connor_sample_size(
    delta: float, discordance: float, *, alpha: float = 0.05, power: float = 0.8
) -> int | None:
    """Documents needed to detect ``delta`` at ``discordance`` (rounded up); ``None`` when the
    effect is 0 or larger than the discordance allows."""
    delta = abs(delta)
    psi = max(discordance, delta)
    if delta == 0 or psi > 1:
        return None
    za, zb = _z(alpha, power)
    n = (za * math.sqrt(psi) + zb * math.sqrt(max(psi - delta**2, 0.0))) ** 2 / delta**2
    return math.ceil(n - 1e-9)


def minimum_detectable_effect(
    n: int, discordance: float, *, alpha: float = 0.05, power: float = 0.8
) -> float | None:
    """The smallest |delta| a two-sided McNemar test at ``alpha`` detects with ``power`` on
    ``n`` paired documents at the observed ``discordance`` (Connor 1987; see the module
    docstring). ``None`` when even a change of every document could not be detected."""
    if n <= 0:
        return None
    za, zb = _z(alpha, power)
    root_n = math.sqrt(n)

    def gap(delta: float) -> float:
        # positive once n documents are enough for delta (LHS grows, RHS shrinks with delta)
        psi = max(discordance, delta)
        return root_n * delta - za * math.sqrt(psi) - zb * math.sqrt(max(psi - delta**2, 0.0))

    if gap(1.0) < 0:
        return None
    low, high = 0.0, 1.0
    for _ in range(200):  # bisection to float precision; the gap is monotone in delta
        mid = (low + high) / 2
        if gap(mid) >= 0:
            high = mid
        else:
            low = mid
        if high - low < 1e-12:
            break
    return high


def document_support(truth: Mapping[str, Mapping[str, Any]]) -> dict[str, int]:
    """Per field, the documents whose ground truth has a value for it (a list column counts
    a document when any of its rows has a value there), sorted by field."""
    counts: dict[str, int] = {}
    for gt in truth.values():
        seen = set()
        for name, value in flatten(gt).items():
            if isinstance(value, list) and value and all(isinstance(r, Mapping) for r in value):
                seen |= {f"{name}[].{c}" for r in value for c, v in r.items() if not is_empty(v)}
            elif not is_empty(value):
                seen.add(name)
        for name in seen:
            counts[name] = counts.get(name, 0) + 1
    return dict(sorted(counts.items()))


@dataclass(frozen=True)
class PlanRow:
    """One field's power: the MDE with the documents at hand, and the documents a margin needs."""

    field: str
    documents: int
    discordance: float
    observed: bool
    mde: float | None
    needed: int | None


def plan_fields(
    documents: Mapping[str, int],
    discordance: Mapping[str, float],
    *,
    default_discordance: float,
    margin: float,
    alpha: float = 0.05,
    power: float = 0.8,
) -> list[PlanRow]:
    """Per field of ``documents`` (field -> documents with a value): the minimum detectable
    effect at today's size and the documents needed to detect ``margin``, at the field's
    observed ``discordance`` when given, else at ``default_discordance``."""
    rows = []
    for name, n in sorted(documents.items()):
        observed = name in discordance
        psi = discordance[name] if observed else default_discordance
        rows.append(
            PlanRow(
                field=name,
                documents=n,
                discordance=psi,
                observed=observed,
                mde=minimum_detectable_effect(n, psi, alpha=alpha, power=power),
                needed=connor_sample_size(margin, psi, alpha=alpha, power=power),
            )
        )
    return rows
