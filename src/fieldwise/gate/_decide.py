"""The pure gate: ``decide(result, policy) -> Verdict``.

Every comparison is exact: per-field accuracies are fractions of integer counts and thresholds
are read as the decimals written in the policy (``0.9`` is 9/10), so 0.8999 never passes 0.9 and
9 of 10 always does. Accuracy is compare's cell accuracy: (correct + both_empty) / cells, where a
value the candidate no longer emits is a *missed* cell that still counts against it, so dropping
values it used to get wrong cannot raise its score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import pandas as pd

from fieldwise.compare import ComparisonResult
from fieldwise.gate._policy import Policy
from fieldwise.gate._verdict import FailedRun, GateError, RuleResult, Verdict

__all__ = ["decide"]


@dataclass(frozen=True)
class _FieldCounts:
    ok: int
    cells: int
    support: int
    weight: float

    @property
    def accuracy(self) -> Fraction:
        # a version with no cell for a field expected nothing and emitted nothing
        return Fraction(self.ok, self.cells) if self.cells else Fraction(1)


def _exact(value: float) -> Fraction:
    """The decimal the user wrote (``0.9`` -> 9/10), not its binary approximation."""
    return Fraction(repr(float(value)))


def _pct(value: Fraction | float) -> str:
    return f"{float(value) * 100:.2f}%"


def _counts(fields: pd.DataFrame, version: str) -> dict[str, _FieldCounts]:
    rows = fields.loc[fields["version"] == version]
    return {
        str(r["field"]): _FieldCounts(
            ok=int(r["correct"]) + int(r["both_empty"]),
            cells=int(r["n_cells"]),
            support=int(r["support"]),
            weight=float(r["weight"]),
        )
        for r in rows.to_dict("records")
    }


def _overall(counts: dict[str, _FieldCounts]) -> Fraction:
    num = sum((_exact(c.weight) * c.ok for c in counts.values()), Fraction(0))
    den = sum((_exact(c.weight) * c.cells for c in counts.values()), Fraction(0))
    return num / den if den else Fraction(0)


def _rule(
    rule: str,
    field: str | None,
    passed: bool,
    observed: Fraction | float,
    threshold: float,
    msg: str,
) -> RuleResult:
    name = rule if field is None else f"{rule}[{field}]"
    return RuleResult(name, rule, field, passed, float(observed), float(threshold), msg)


def decide(
    result: ComparisonResult,
    policy: Policy,
    *,
    failed_runs: Sequence[FailedRun] = (),
    documents: int | None = None,
) -> Verdict:
    """Check ``result`` (baseline vs candidate) against ``policy``; pure, no I/O.

    ``documents`` is the size of the evaluation set (default: the documents in the comparison);
    ``failed_runs`` are the runs that produced no output, over ``documents`` x 2 attempted runs.
    Rules, in order: min_documents, max_failed_run_share, min_accuracy, then per field (sorted):
    min_support, min_field_accuracy, max_regression, critical (no document may regress),
    significant_regression (no regression with Holm-adjusted McNemar p < alpha).
    Raises :class:`GateError` when it cannot decide: no candidate, no data, or a policy naming a
    field the comparison does not have.
    """
    candidate = result.candidate
    if candidate is None:
        raise GateError("the gate needs a candidate version to compare with the baseline")
    if result.cells.empty or result.fields.empty:
        raise GateError("the comparison has no scored values: nothing to decide on")
    base, cand = _counts(result.fields, result.baseline), _counts(result.fields, candidate)
    names = sorted(base.keys() | cand.keys())
    known = set(names) | {n.partition("[].")[0] for n in names}
    unknown = sorted(policy.named_fields() - known)
    if unknown:
        raise GateError(
            f"{policy.source}: policy names field {unknown[0]!r}, which the comparison lacks "
            f"(fields: {', '.join(names)})"
        )
    n_docs = documents if documents is not None else int(result.cells["item"].nunique())
    if n_docs <= 0:
        raise GateError("the evaluation set has no documents: nothing to decide on")

    rules: list[RuleResult] = []
    ok = n_docs >= policy.min_documents
    rules.append(
        _rule(
            "min_documents",
            None,
            ok,
            n_docs,
            policy.min_documents,
            f"{n_docs} documents evaluated; at least {policy.min_documents} required",
        )
    )
    if policy.max_failed_run_share is not None:
        share = Fraction(len(failed_runs), n_docs * 2)
        ok = share <= _exact(policy.max_failed_run_share)
        rules.append(
            _rule(
                "max_failed_run_share",
                None,
                ok,
                share,
                policy.max_failed_run_share,
                f"{len(failed_runs)} of {n_docs * 2} runs failed ({_pct(share)}); "
                f"at most {_pct(policy.max_failed_run_share)} allowed",
            )
        )
    if policy.min_accuracy is not None:
        acc = _overall(cand)
        ok = acc >= _exact(policy.min_accuracy)
        rules.append(
            _rule(
                "min_accuracy",
                None,
                ok,
                acc,
                policy.min_accuracy,
                f"overall accuracy {_pct(acc)} (candidate {candidate}); "
                f"at least {_pct(policy.min_accuracy)} required",
            )
        )
    critical = {n for n in names if policy.is_critical(n)} | set(
        result.fields.loc[result.fields["critical"].astype(bool), "field"].astype(str)
    )
    significance = _significance(result.significance)
    empty = _FieldCounts(0, 0, 0, 1.0)
    for name in names:
        b, c = base.get(name, empty), cand.get(name, empty)
        rules.extend(_field_rules(name, b, c, policy, name in critical, significance.get(name)))

    failed = [r.message for r in rules if not r.passed]
    reasons = tuple(failed) or (f"all {len(rules)} rules passed",)
    return Verdict(
        passed=not failed,
        reasons=reasons,
        rules=tuple(rules),
        baseline=result.baseline,
        candidate=candidate,
        policy_source=policy.source,
    )


@dataclass(frozen=True)
class _Flips:
    regressed: int
    fixed: int
    p_holm: float


def _significance(table: pd.DataFrame) -> dict[str, _Flips]:
    if table.empty:
        return {}
    return {
        str(r["field"]): _Flips(int(r["regressed"]), int(r["fixed"]), float(r["p_holm"]))
        for r in table.to_dict("records")
    }


def _field_rules(
    name: str,
    b: _FieldCounts,
    c: _FieldCounts,
    policy: Policy,
    critical: bool,
    flips: _Flips | None,
) -> list[RuleResult]:
    out: list[RuleResult] = []
    support = max(b.support, c.support)
    # fields absent from the ground truth have no support to ask for
    if policy.min_support and support > 0:
        ok = support >= policy.min_support
        out.append(
            _rule(
                "min_support",
                name,
                ok,
                support,
                policy.min_support,
                f"{name}: {support} expected values; at least {policy.min_support} required",
            )
        )
    minimum = policy.min_accuracy_for(name)
    if minimum is not None:
        ok = c.accuracy >= _exact(minimum)
        out.append(
            _rule(
                "min_field_accuracy",
                name,
                ok,
                c.accuracy,
                minimum,
                f"{name}: accuracy {_pct(c.accuracy)} ({c.ok}/{c.cells}); "
                f"at least {_pct(minimum)} required",
            )
        )
    drop = b.accuracy - c.accuracy
    limit = policy.max_regression_for(name)
    if limit is not None:
        ok = drop <= _exact(limit)
        out.append(
            _rule(
                "max_regression",
                name,
                ok,
                drop,
                limit,
                f"{name}: accuracy {_pct(b.accuracy)} -> {_pct(c.accuracy)} "
                f"(drop {_pct(drop)}); at most {_pct(limit)} allowed",
            )
        )
    regressed = flips.regressed if flips else 0
    if critical:
        out.append(
            _rule(
                "critical",
                name,
                regressed == 0,
                regressed,
                0,
                f"{name} is critical: {regressed} document(s) went from right to wrong; "
                "none allowed",
            )
        )
    if flips is not None:
        worse = flips.regressed > flips.fixed
        ok = not (worse and flips.p_holm < policy.alpha)
        out.append(
            _rule(
                "significant_regression",
                name,
                ok,
                flips.p_holm,
                policy.alpha,
                f"{name}: {flips.regressed} regressed vs {flips.fixed} fixed, "
                f"Holm-adjusted p={flips.p_holm:.3g}"
                + ("; a significant regression" if not ok else "")
                + f" (alpha {policy.alpha:g})",
            )
        )
    return out
