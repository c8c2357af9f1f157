"""Confidence intervals for proportions: Wilson (one version) and Newcombe (paired difference).

- Wilson score interval (Wilson 1927) for a share ``k / n``: it stays inside [0, 1] and keeps
  its coverage near 0 and 1, where the Wald interval collapses (9 of 9 right is not "100% ± 0").
- Newcombe's hybrid score interval for the difference of two *paired* proportions (Newcombe
  1998, "Improved confidence intervals for the difference between binomial proportions based
  on paired data", method 10): the two Wilson intervals combined with the phi correlation of
  the 2x2 table (with Newcombe's continuity correction), so documents that flip and
  documents that do not are both accounted for.
- The overall paired interval (:func:`overall_paired`): the same Newcombe interval over every
  field's paired units pooled by field weight, counted at the scale of the documents.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fieldwise.compare.stats._distributions import normal_quantile

__all__ = ["Interval", "newcombe_paired", "overall_paired", "wilson", "wilson_bounds"]


@dataclass(frozen=True)
class Interval:
    """A point estimate with its two-sided interval at ``confidence``."""

    estimate: float
    low: float
    high: float
    confidence: float


def wilson_bounds(
    successes: npt.NDArray[np.float64], n: npt.NDArray[np.float64], *, confidence: float = 0.95
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The Wilson score interval of each share ``successes / n``: (low, high) arrays, NaN
    where ``n`` is 0. ``successes`` and ``n`` may be weighted sums (a weighted share keeps
    its ``n``)."""
    z = normal_quantile(1 - (1 - confidence) / 2)
    z2 = z * z
    with np.errstate(invalid="ignore", divide="ignore"):
        p = successes / n
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = z * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    empty = n <= 0
    low = np.where(empty, np.nan, np.maximum(0.0, centre - half))
    high = np.where(empty, np.nan, np.minimum(1.0, centre + half))
    return low.astype(np.float64), high.astype(np.float64)


def wilson(successes: float, n: float, *, confidence: float = 0.95) -> Interval | None:
    """:func:`wilson_bounds` of one share as an :class:`Interval`; ``None`` when ``n`` is 0."""
    if n <= 0:
        return None
    shares = np.array([[successes], [n]], dtype=np.float64)
    low, high = wilson_bounds(shares[0], shares[1], confidence=confidence)
    # at p = 0 or 1 one bound is exactly 0 or 1; keep float rounding from moving it
    return Interval(
        successes / n,
        0.0 if successes <= 0 else float(low[0]),
        1.0 if successes >= n else float(high[0]),
        confidence,
    )


def newcombe_paired(
    both_right: float,
    regressed: float,
    fixed: float,
    both_wrong: float,
    *,
    confidence: float = 0.95,
) -> Interval | None:
    """Interval of candidate minus baseline accuracy over paired units (Newcombe method 10).

    ``regressed`` units are right in the baseline only, ``fixed`` in the candidate only.
    ``None`` when there are no units.
    """
    a, b, c, d = both_right, regressed, fixed, both_wrong
    n = a + b + c + d
    if n == 0:
        return None
    base = wilson(a + b, n, confidence=confidence)
    cand = wilson(a + c, n, confidence=confidence)
    assert base is not None
    assert cand is not None
    p1, l1, u1 = base.estimate, base.low, base.high
    p2, l2, u2 = cand.estimate, cand.low, cand.high
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    # phi with Newcombe's continuity correction: shrink a*d - b*c by n/2 when positive
    cross = a * d - b * c
    corrected = cross - n / 2 if cross > n / 2 else (cross if cross < 0 else 0.0)
    phi = corrected / math.sqrt(margins) if margins > 0 else 0.0
    # Newcombe writes theta = p1 - p2; the candidate's gain is its negative.
    below = (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
    above = (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
    delta = p2 - p1
    return Interval(
        delta,
        max(-1.0, delta - math.sqrt(max(above, 0.0))),
        min(1.0, delta + math.sqrt(max(below, 0.0))),
        confidence,
    )


def overall_paired(
    transitions: Iterable[tuple[float, int, int, int, int]],
    documents: int,
    *,
    confidence: float = 0.95,
) -> Interval | None:
    """The paired interval of the overall accuracy change: Newcombe's (:func:`newcombe_paired`)
    over each field's transitions ``(weight, both_right, regressed, fixed, both_wrong)`` (the
    per-field paired units of the significance table), pooled by field weight and counted as
    ``documents`` units rather than documents x fields.

    The fields of one document move together (one bad scan fails them all), so the pooled
    units are not independent: counting them as ``documents`` pairs is the conservative
    reading (the evidence of n documents, not of n x fields cells), and an unchanged candidate
    on 16 documents is not "shown non-inferior" by its 240 identical cells. ``None`` without
    units or documents."""
    pooled = [0.0, 0.0, 0.0, 0.0]
    total = 0.0
    for weight, *counts in transitions:
        for i, count in enumerate(counts):
            pooled[i] += weight * count
        total += weight * sum(counts)
    if documents <= 0 or total <= 0:
        return None
    scaled = [documents * x / total for x in pooled]
    return newcombe_paired(*scaled, confidence=confidence)
