"""The pure gate: ``decide(result, policy) -> Verdict`` for each candidate.

The figure every threshold is checked against is **field accuracy** = correct / expected
(expected = values the ground truth has), the headline figure of the report; the overall
figure pools the fields weighted by each field's ``weight`` from dataset.toml. A value the
candidate no longer emits is a *missed* expected value that still counts against it, so
dropping values it used to get wrong cannot raise its score.

Every comparison is exact: accuracies are fractions of integer counts and thresholds are read
as the decimals written in the policy (``0.9`` is 9/10), so 0.8999 never passes 0.9 and 9 of
10 always does.

Never a silent pass: a failed, canceled or missing run (``max_failed_run_share`` is 0 unless
the policy allows more), a version with no output at all, a declared field no document has a
value for, a field the candidate leaves empty wherever the baseline had values, and a list
field with significantly fewer rows each fail the verdict. A non-inferiority margin the data
can neither confirm nor refute makes it inconclusive: the default policy's overall margin
(:func:`~fieldwise.gate.default_policy`) turns "no evidence" into inconclusive, never a pass.
So do fewer documents than ``min_documents``: too few documents is missing evidence, not
evidence of harm.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pandas as pd

from fieldwise.gate._fields import (
    FieldCounts,
    exact,
    field_rules,
    flips_by_field,
    overall_rule,
    pct,
    row_rules,
    rule,
)
from fieldwise.gate._inputs import Figures, GateInput
from fieldwise.gate._policy import Policy
from fieldwise.gate._verdict import FailedRun, GateError, RuleResult, Verdict, worst

__all__ = ["GATE_FIGURE", "decide", "decide_all"]

#: What the gate's accuracy thresholds are checked against (shown in reports).
GATE_FIGURE = "field accuracy = correct / expected (overall: weighted by each field's weight)"


def _counts(fields: pd.DataFrame, version: str) -> dict[str, FieldCounts]:
    rows = fields.loc[fields["version"] == version]
    return {
        str(r["field"]): FieldCounts(
            correct=int(r["correct"]), support=int(r["support"]), weight=float(r["weight"])
        )
        for r in rows.to_dict("records")
    }


def _overall(counts: dict[str, FieldCounts]) -> Fraction | None:
    num = sum((exact(c.weight) * c.correct for c in counts.values()), Fraction(0))
    den = sum((exact(c.weight) * c.support for c in counts.values()), Fraction(0))
    return num / den if den else None


def _names(runs: Sequence[FailedRun], limit: int = 5) -> str:
    shown = sorted({r.shown for r in runs})
    text = ", ".join(shown[:limit])
    return text + (f" and {len(shown) - limit} more" if len(shown) > limit else "")


def decide_all(
    result: Figures | GateInput,
    policy: Policy,
    *,
    failed_runs: Sequence[FailedRun] = (),
    documents: int | None = None,
) -> tuple[Verdict, ...]:
    """One verdict per candidate of ``result`` (see :func:`decide`), in candidate order."""
    if not result.candidates:
        raise GateError("the gate needs a candidate version to compare with the baseline")
    return tuple(
        decide(result, policy, failed_runs=failed_runs, documents=documents, candidate=c)
        for c in result.candidates
    )


def decide(
    result: Figures | GateInput,
    policy: Policy,
    *,
    failed_runs: Sequence[FailedRun] = (),
    documents: int | None = None,
    candidate: str | None = None,
) -> Verdict:
    """Check ``candidate`` (default: the result's first) against the baseline under ``policy``.

    ``documents`` is the size of the evaluation set (default: the documents in the comparison);
    ``failed_runs`` are the runs that produced no output (any version; those of the baseline
    and this candidate count, over ``documents`` x 2 runs). Rules, in order: min_documents,
    max_failed_run_share, outputs, min_accuracy, then per field (sorted): support,
    min_support, min_field_accuracy, max_regression, critical, significant_regression (or
    non_inferiority when the field has a margin), empty_column; then row_recall per list
    field; then overall_non_inferiority when the policy has an ``overall_margin``.
    Pure, no I/O. Raises :class:`GateError` when it cannot decide: no candidate, no documents,
    nothing scored, no expected value at all, or a policy naming a field the comparison does
    not have.

    ``result`` is any comparison's :class:`~fieldwise.gate.Figures` (a whole comparison, the
    figures reduced from merged statistics) or their :class:`GateInput`: each is read as a
    :class:`GateInput`, so the same counts give the same verdict.
    """
    first = result.candidates[0] if result.candidates else None
    chosen = candidate if candidate is not None else first
    if chosen is None:
        raise GateError("the gate needs a candidate version to compare with the baseline")
    if chosen not in result.candidates:
        raise GateError(f"version {chosen!r} is not a candidate of this comparison")
    whole = result if isinstance(result, GateInput) else GateInput.of(result)
    pair = whole.for_candidate(chosen)
    n_docs = documents if documents is not None else pair.documents
    if n_docs <= 0:
        raise GateError("the evaluation set has no documents: nothing to decide on")
    if not pair.scored:
        raise GateError("the comparison has no scored values: nothing to decide on")
    base, cand = _counts(pair.fields, pair.baseline), _counts(pair.fields, chosen)
    if not any(c.support for c in base.values()):
        raise GateError(
            "the ground truth has no expected value in any document: nothing is measured, "
            "so nothing can pass"
        )
    names = sorted(base.keys() | cand.keys())
    known = set(names) | {n.partition("[].")[0] for n in names}
    unknown = sorted(policy.named_fields() - known)
    if unknown:
        raise GateError(
            f"{policy.source}: policy names field {unknown[0]!r}, which the comparison lacks "
            f"(fields: {', '.join(names)})"
        )
    rules = _global_rules(pair, policy, chosen, n_docs, failed_runs, cand)
    critical = {n for n in names if policy.is_critical(n)} | set(
        pair.fields.loc[pair.fields["critical"].astype(bool), "field"].astype(str)
    )
    significance = flips_by_field(pair.significance)
    empty = {
        str(f): int(n)
        for f, n in zip(
            pair.empty_columns["field"], pair.empty_columns["baseline_documents"], strict=True
        )
    }
    nothing = FieldCounts(0, 0, 1.0)
    # output nobody declared or expects: not evaluated, so no rule (a declared field no
    # document has is a rule, and fails)
    not_evaluated = tuple(
        n
        for n in names
        if n not in pair.declared_fields
        and base.get(n, nothing).support == 0
        and cand.get(n, nothing).support == 0
    )
    for name in (n for n in names if n not in not_evaluated):
        rules.extend(
            field_rules(
                name,
                base.get(name, nothing),
                cand.get(name, nothing),
                policy,
                critical=name in critical,
                declared=name in pair.declared_fields,
                flips=significance.get(name),
            )
        )
        if name in empty:
            had = empty[name]
            rules.append(
                rule(
                    "empty_column",
                    name,
                    False,
                    0,
                    had,
                    f"{name}: the candidate left it empty on all {had} document(s) where the "
                    "baseline had a value (an all-null column)",
                )
            )
    rules.extend(row_rules(pair.row_tests, policy))
    if policy.overall_margin is not None:
        weights = {n: c.weight for n, c in cand.items()}
        units = pair.significance
        if not units.empty and not_evaluated:
            units = units.loc[~units["field"].astype(str).isin(not_evaluated).to_numpy()]
        rules.append(overall_rule(units, weights, pair.documents, policy))
    return _verdict(pair.baseline, chosen, policy, rules, not_evaluated)


def _global_rules(
    pair: GateInput,
    policy: Policy,
    candidate: str,
    n_docs: int,
    failed_runs: Sequence[FailedRun],
    cand: dict[str, FieldCounts],
) -> list[RuleResult]:
    rules = [_min_documents_rule(n_docs, policy.min_documents)]
    if policy.max_failed_run_share is not None:
        mine = [r for r in failed_runs if r.version in (pair.baseline, candidate)]
        share = Fraction(len(mine), n_docs * 2)
        ok = share <= exact(policy.max_failed_run_share)
        text = (
            f"{len(mine)} of {n_docs * 2} runs failed, were canceled or never ran "
            f"({pct(share)}); at most {pct(policy.max_failed_run_share)} allowed"
        )
        if mine:
            text += f"; their cells count as missed: {_names(mine)}"
        rules.append(
            rule("max_failed_run_share", None, ok, share, policy.max_failed_run_share, text)
        )
    silent = [v for v in (pair.baseline, candidate) if v not in pair.valued_versions]
    rules.append(
        rule(
            "outputs",
            None,
            not silent,
            2 - len(silent),
            2,
            f"{', '.join(silent)} produced no value on any of the {n_docs} documents"
            if silent
            else "both versions produced values",
        )
    )
    if policy.min_accuracy is not None:
        acc = _overall(cand)
        rules.append(
            rule(
                "min_accuracy",
                None,
                acc is not None and acc >= exact(policy.min_accuracy),
                acc if acc is not None else 0,
                policy.min_accuracy,
                f"overall field accuracy {pct(acc) if acc is not None else 'not measured'} "
                f"(candidate {candidate}, weighted by field weight); "
                f"at least {pct(policy.min_accuracy)} required",
            )
        )
    return rules


def _min_documents_rule(n_docs: int, required: int) -> RuleResult:
    """Enough documents to decide on. Too few is missing evidence, not evidence of harm: the
    rule is inconclusive (never a fail) and names how many documents would decide it."""
    enough = n_docs >= required
    return rule(
        "min_documents",
        None,
        enough,
        n_docs,
        required,
        f"{n_docs} documents evaluated; at least {required} required"
        if enough
        else f"{n_docs} documents evaluated, fewer than the {required} required: at least "
        f"{required} documents would decide it ({required - n_docs} more)",
        inconclusive=not enough,
    )


def _verdict(
    baseline: str,
    candidate: str,
    policy: Policy,
    rules: list[RuleResult],
    not_evaluated: tuple[str, ...] = (),
) -> Verdict:
    status = worst([r.status for r in rules])
    failed = [r.message for r in rules if r.status == "fail"]
    unsure = [f"inconclusive: {r.message}" for r in rules if r.status == "inconclusive"]
    reasons = tuple(failed + unsure) or (f"all {len(rules)} rules passed",)
    return Verdict(
        passed=status == "pass",
        reasons=reasons,
        rules=tuple(rules),
        baseline=baseline,
        candidate=candidate,
        policy_source=policy.source,
        status=status,
        figure=GATE_FIGURE,
        not_evaluated=not_evaluated,
    )
