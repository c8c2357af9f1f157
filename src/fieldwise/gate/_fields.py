"""The per-field and per-list rules of the gate (see :func:`fieldwise.gate.decide`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import pandas as pd

from fieldwise.compare import connor_sample_size, overall_paired, p_phrase
from fieldwise.gate._policy import Policy
from fieldwise.gate._verdict import RuleResult

__all__ = [
    "FieldCounts",
    "Flips",
    "exact",
    "field_rules",
    "flips_by_field",
    "overall_rule",
    "pct",
    "row_rules",
]


def exact(value: float) -> Fraction:
    """The decimal the user wrote (``0.9`` -> 9/10), not its binary approximation."""
    return Fraction(repr(float(value)))


def pct(value: Fraction | float) -> str:
    """An accuracy: 0.9375 -> "93.75%"."""
    return f"{float(value) * 100:.2f}%"


def pp(value: Fraction | float) -> str:
    """A difference of accuracies in percentage points: 0.0625 -> "6.25 pp"."""
    return f"{float(value) * 100:.2f} pp"


def rule(
    rule_name: str,
    field: str | None,
    passed: bool,
    observed: Fraction | float,
    threshold: Fraction | float,
    msg: str,
    *,
    inconclusive: bool = False,
) -> RuleResult:
    name = rule_name if field is None else f"{rule_name}[{field}]"
    return RuleResult(
        name, rule_name, field, passed, float(observed), float(threshold), msg, inconclusive
    )


@dataclass(frozen=True)
class FieldCounts:
    """One version's counts for one field: correct values, expected values, weight."""

    correct: int
    support: int
    weight: float

    @property
    def accuracy(self) -> Fraction | None:
        """Field accuracy, correct / expected, exact; ``None`` when nothing was expected."""
        return Fraction(self.correct, self.support) if self.support else None


@dataclass(frozen=True)
class Flips:
    """One field's paired test against the baseline."""

    regressed: int
    fixed: int
    p_holm: float
    delta_low: float
    delta_high: float


def flips_by_field(table: pd.DataFrame) -> dict[str, Flips]:
    if table.empty:
        return {}
    return {
        str(r["field"]): Flips(
            int(r["regressed"]),
            int(r["fixed"]),
            float(r["p_holm"]),
            float(r["delta_low"]),
            float(r["delta_high"]),
        )
        for r in table.to_dict("records")
    }


def field_rules(
    name: str,
    b: FieldCounts,
    c: FieldCounts,
    policy: Policy,
    *,
    critical: bool,
    declared: bool,
    flips: Flips | None,
) -> list[RuleResult]:
    """Rules about one field, in a fixed order."""
    out: list[RuleResult] = []
    support = max(b.support, c.support)
    if declared and support == 0:
        out.append(
            rule(
                "support",
                name,
                False,
                0,
                1,
                f"{name}: no document has an expected value; the field is not measured, "
                "and not measured is not a pass",
            )
        )
    # fields absent from the ground truth have no support to ask for
    if policy.min_support and support > 0:
        out.append(
            rule(
                "min_support",
                name,
                support >= policy.min_support,
                support,
                policy.min_support,
                f"{name}: {support} expected values; at least {policy.min_support} required",
            )
        )
    minimum = policy.min_accuracy_for(name)
    if minimum is not None and c.accuracy is not None:
        out.append(
            rule(
                "min_field_accuracy",
                name,
                c.accuracy >= exact(minimum),
                c.accuracy,
                minimum,
                f"{name}: field accuracy {pct(c.accuracy)} ({c.correct}/{c.support} expected "
                f"values correct); at least {pct(minimum)} required",
            )
        )
    limit = policy.max_regression_for(name)
    if limit is not None and b.accuracy is not None and c.accuracy is not None:
        drop = b.accuracy - c.accuracy
        out.append(
            rule(
                "max_regression",
                name,
                drop <= exact(limit),
                drop,
                limit,
                f"{name}: field accuracy {pct(b.accuracy)} -> {pct(c.accuracy)} "
                f"(drop {pp(drop)}); at most {pp(limit)} allowed",
            )
        )
    regressed = flips.regressed if flips else 0
    if critical:
        out.append(
            rule(
                "critical",
                name,
                regressed == 0,
                regressed,
                0,
                f"{name} is critical: {regressed} document(s) went from right to wrong; "
                "none allowed",
            )
        )
    margin = policy.margin_for(name)
    if margin is not None:
        out.append(_margin_rule(name, margin, flips, policy.alpha))
    elif flips is not None:
        worse = flips.regressed > flips.fixed
        ok = not (worse and flips.p_holm < policy.alpha)
        out.append(
            rule(
                "significant_regression",
                name,
                ok,
                flips.p_holm,
                policy.alpha,
                f"{name}: {flips.regressed} regressed vs {flips.fixed} fixed, "
                f"Holm-adjusted {p_phrase(flips.p_holm)}"
                + ("; a significant regression" if not ok else "")
                + f" (alpha {policy.alpha:g})",
            )
        )
    return out


def _margin_rule(name: str, margin: float, flips: Flips | None, alpha: float) -> RuleResult:
    """Non-inferiority: pass when the whole delta interval lies above -margin, fail when it lies
    wholly below (a regression beyond the margin, significant at alpha), else inconclusive."""
    level = f"{(1 - alpha) * 100:g}%"
    if flips is None:
        return rule(
            "non_inferiority",
            name,
            False,
            math.nan,
            -margin,
            f"{name}: no paired documents, so a regression beyond the margin "
            f"{pp(margin)} cannot be ruled out",
            inconclusive=True,
        )
    low, high = flips.delta_low, flips.delta_high
    return _against_margin(
        "non_inferiority",
        name,
        f"{name}: delta {level} interval [{low * 100:+.2f}, {high * 100:+.2f}] pp",
        (low, high),
        margin,
        shown="not worse by more than the margin",
        undecided="the data cannot rule out a regression beyond the margin (more documents "
        "would decide it)",
    )


def _against_margin(
    rule_name: str,
    field: str | None,
    text: str,
    interval: tuple[float, float],
    margin: float,
    *,
    shown: str,
    undecided: str,
    low_at_margin_passes: bool = False,
) -> RuleResult:
    """A delta's ``interval`` (low, high) against -``margin``: pass when it lies above (the
    low bound exactly at it too, with ``low_at_margin_passes``), fail when it lies wholly
    below, else inconclusive; ``text`` names the interval, ``shown`` and ``undecided`` end
    the passing and the inconclusive message."""
    low, high = interval
    bound = -exact(margin)
    if Fraction(low) > bound or (low_at_margin_passes and Fraction(low) == bound):
        return rule(
            rule_name, field, True, low, -margin, f"{text} lies above -{pp(margin)}: {shown}"
        )
    if Fraction(high) < bound:
        return rule(
            rule_name,
            field,
            False,
            high,
            -margin,
            f"{text} lies below -{pp(margin)}: worse by more than the margin",
        )
    return rule(
        rule_name,
        field,
        False,
        low,
        -margin,
        f"{text} reaches below -{pp(margin)}: {undecided}",
        inconclusive=True,
    )


def overall_rule(
    significance: pd.DataFrame, weights: dict[str, float], documents: int, policy: Policy
) -> RuleResult:
    """Overall non-inferiority (``overall_margin``): pass when the lower bound of the paired
    interval of the overall accuracy change (:func:`~fieldwise.compare.overall_paired`
    at 1 - alpha) reaches -margin, fail when the whole interval lies below,
    else inconclusive, naming the documents that would decide it (Connor's sample size for a
    change of the margin at the observed discordance, 80% power: what ``fieldwise plan``
    reports)."""
    margin = policy.overall_margin
    assert margin is not None
    rows = [] if significance.empty else significance.to_dict("records")
    transitions = [
        (
            weights.get(str(r["field"]), 1.0),
            int(r["both_right"]),
            int(r["regressed"]),
            int(r["fixed"]),
            int(r["both_wrong"]),
        )
        for r in rows
    ]
    level = f"{(1 - policy.alpha) * 100:g}%"
    interval = overall_paired(transitions, documents, confidence=1 - policy.alpha)
    total = sum(w * (a + b + c + d) for w, a, b, c, d in transitions)
    discordance = sum(w * (b + c) for w, _, b, c, _ in transitions) / total if total else 0.0
    needed = connor_sample_size(margin, discordance, alpha=policy.alpha) if margin else None
    decide_it = (
        f"about {needed} documents would decide it (to detect a change of {pp(margin)} at the "
        f"observed discordance {pct(discordance)}, 80% power; see fieldwise plan)"
        if needed is not None
        else "more documents would decide it"
    )
    if interval is None:
        return rule(
            "overall_non_inferiority",
            None,
            False,
            math.nan,
            -margin,
            f"overall: no paired documents, so a regression beyond {pp(margin)} cannot be "
            f"ruled out; {decide_it}",
            inconclusive=True,
        )
    return _against_margin(
        "overall_non_inferiority",
        None,
        f"overall: accuracy change {interval.estimate * 100:+.2f} pp, paired {level} interval "
        f"[{interval.low * 100:+.2f}, {interval.high * 100:+.2f}] pp over {documents} documents",
        (interval.low, interval.high),
        margin,
        shown="shown not worse by more than the margin",
        undecided=f"not shown non-inferior; {decide_it}",
        low_at_margin_passes=True,
    )


def row_rules(tests: pd.DataFrame, policy: Policy) -> list[RuleResult]:
    """One rule per list field: the candidate may not extract fewer rows (a significant loss
    of complete lists, or a row-recall drop beyond the policy's ``max_row_recall_drop``)."""
    out = []
    for r in tests.sort_values("field").to_dict("records"):
        name = str(r["field"])
        before, after = float(r["row_recall_baseline"]), float(r["row_recall_candidate"])
        if math.isnan(before) or math.isnan(after):
            continue
        lost, gained, p = int(r["regressed"]), int(r["fixed"]), float(r["p_holm"])
        significant = lost > gained and p < policy.alpha
        limit = policy.max_row_recall_drop_for(name)
        drop = Fraction(before) - Fraction(after)
        beyond = limit is not None and drop > exact(limit)
        text = (
            f"{name}: row recall {pct(before)} -> {pct(after)}; {lost} document(s) lost rows, "
            f"{gained} gained (Holm-adjusted {p_phrase(p)})"
        )
        if significant:
            text += "; the candidate extracts significantly fewer rows"
        if beyond:
            text += f"; a drop of {pp(drop)}, at most {pp(limit or 0)} allowed"
        out.append(
            rule(
                "row_recall",
                name,
                not (significant or beyond),
                after,
                before if limit is None else before - limit,
                text,
            )
        )
    return out
