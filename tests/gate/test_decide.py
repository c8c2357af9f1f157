"""``decide()`` as a pure function over hand-built comparisons: each rule passing and failing.

Most cases use ``scores(r1, r2, n)``: n documents, one string field "a", baseline v1 right on
its first r1 documents, candidate v2 right on its first r2 (the rest wrong). So v2 on (8, 7, 10)
regresses document 7 only: accuracy 0.8 -> 0.7.
"""

from __future__ import annotations

import dataclasses

import pytest

from fieldwise.gate import (
    FailedRun,
    GateError,
    Policy,
    RuleResult,
    Verdict,
    decide,
    policy_from_mapping,
)
from tests.gate._build import docs, make, scores


def rule(verdict: Verdict, name: str) -> RuleResult:
    (found,) = [r for r in verdict.rules if r.name == name]
    return found


def test_default_policy_passes_an_improvement() -> None:
    verdict = decide(scores(7, 9, 10), Policy())
    assert verdict.passed
    assert verdict.reasons == (f"all {len(verdict.rules)} rules passed",)
    assert [r.name for r in verdict.rules] == [
        "min_documents",
        "max_failed_run_share",
        "outputs",
        "significant_regression[a]",
    ]
    assert (verdict.status, verdict.exit_code) == ("pass", 0)
    assert (verdict.baseline, verdict.candidate) == ("v1", "v2")
    with pytest.raises(dataclasses.FrozenInstanceError):
        verdict.passed = False  # type: ignore[misc]


def test_min_documents() -> None:
    result = scores(9, 9, 10)
    assert decide(result, Policy(min_documents=10)).passed
    verdict = decide(result, Policy(min_documents=11))
    # too few documents is missing evidence, not evidence of harm: inconclusive, not fail
    assert (verdict.passed, verdict.status, verdict.exit_code) == (False, "inconclusive", 3)
    r = rule(verdict, "min_documents")
    assert (r.observed, r.threshold, r.status) == (10, 11, "inconclusive")
    assert verdict.reasons == (
        "inconclusive: 10 documents evaluated, fewer than the 11 required: at least 11 "
        "documents would decide it (1 more)",
    )
    # a rule that fails on the documents there are still fails the verdict
    worse = decide(scores(9, 5, 10), Policy(min_documents=11, min_accuracy=0.9))
    assert worse.status == "fail"
    assert rule(worse, "min_documents").status == "inconclusive"
    # the evaluation set may be larger than what was compared
    assert decide(result, Policy(min_documents=11), documents=12).passed


def test_max_failed_run_share() -> None:
    result = scores(9, 9, 10)
    failed = [FailedRun(item="doc00001", version="v2", error="timeout")]
    # 1 of 20 runs = 5%
    assert decide(result, Policy(max_failed_run_share=0.05), failed_runs=failed).passed
    verdict = decide(result, Policy(max_failed_run_share=0.04), failed_runs=failed)
    assert not verdict.passed
    assert rule(verdict, "max_failed_run_share").observed == 0.05
    assert "1 of 20 runs failed" in verdict.reasons[0]


def test_min_accuracy_overall() -> None:
    result = scores(9, 9, 10)
    assert decide(result, Policy(min_accuracy=0.9)).passed
    verdict = decide(result, Policy(min_accuracy=0.91))
    assert not verdict.passed
    assert rule(verdict, "min_accuracy").observed == 0.9


def test_min_accuracy_overall_is_weighted_like_compare() -> None:
    names = docs(4)
    truth = {d: {"a": "ok", "b": "ok"} for d in names}
    # a: 4/4 right, b: 0/4 right; weight a=3 -> overall (3*4)/(3*4+4) = 0.75
    out = {d: {"a": "ok", "b": "x"} for d in names}
    result = make(truth, out, out, {"a": {"type": "string", "weight": 3}})
    verdict = decide(result, Policy(min_accuracy=0.75))
    assert verdict.passed
    assert rule(verdict, "min_accuracy").observed == result.accuracy_candidate == 0.75


def test_min_field_accuracy_default_and_per_field() -> None:
    names = docs(10)
    truth = {d: {"a": "ok", "b": "ok"} for d in names}
    v2 = {
        d: {"a": "ok" if i < 9 else "x", "b": "ok" if i < 6 else "x"} for i, d in enumerate(names)
    }
    result = make(truth, v2, v2)
    assert not decide(result, Policy(min_field_accuracy=0.7)).passed
    lenient = Policy(min_field_accuracy=0.7, field_min_accuracy={"b": 0.6})
    verdict = decide(result, lenient)
    assert verdict.passed
    assert rule(verdict, "min_field_accuracy[a]").threshold == 0.7
    assert rule(verdict, "min_field_accuracy[b]").threshold == 0.6
    strict = decide(result, Policy(field_min_accuracy={"a": 0.95}))
    assert [r.name for r in strict.failed_rules] == ["min_field_accuracy[a]"]
    assert strict.reasons == (
        "a: field accuracy 90.00% (9/10 expected values correct); at least 95.00% required",
    )


def test_max_regression() -> None:
    result = scores(8, 6, 10)  # 0.8 -> 0.6
    assert decide(result, Policy(max_regression=0.2)).passed
    verdict = decide(result, Policy(max_regression=0.19))
    assert [r.name for r in verdict.failed_rules] == ["max_regression[a]"]
    assert rule(verdict, "max_regression[a]").observed == pytest.approx(0.2)
    assert not decide(result, Policy(field_max_regression={"a": 0.1})).passed
    # an improvement is a negative drop
    assert rule(decide(scores(6, 8, 10), Policy(max_regression=0.0)), "max_regression[a]").passed


def test_max_regression_is_exact_where_floats_are_not() -> None:
    # 0.8 - 0.7 is 0.10000000000000009 in floats; the drop is exactly 1/10
    assert 0.8 - 0.7 > 0.1
    verdict = decide(scores(8, 7, 10), Policy(max_regression=0.1))
    assert verdict.passed


def test_never_rounds_before_comparing() -> None:
    # 8999 of 10000 right: 89.99%, which rounds to 90.0% but is below 0.9
    result = scores(8999, 8999, 10000)
    verdict = decide(result, Policy(min_accuracy=0.9, min_field_accuracy=0.9))
    assert not verdict.passed
    assert rule(verdict, "min_accuracy").observed == 0.8999
    assert [r.name for r in verdict.failed_rules] == ["min_accuracy", "min_field_accuracy[a]"]
    # and exactly 9 of 10 passes 0.9 (9/10 is not below the decimal 0.9)
    assert decide(scores(9, 9, 10), Policy(min_accuracy=0.9, min_field_accuracy=0.9)).passed


def test_critical_field_may_not_regress_at_all() -> None:
    # v1 right on 0..7, v2 right on 1..9: fixes two documents, regresses doc 0
    names = docs(10)
    truth = {d: {"a": "ok"} for d in names}
    v1 = {d: {"a": "ok" if i < 8 else "x"} for i, d in enumerate(names)}
    v2 = {d: {"a": "ok" if i > 0 else "x"} for i, d in enumerate(names)}
    plain = make(truth, v1, v2)
    assert decide(plain, Policy(max_regression=0.0)).passed  # better on the whole
    verdict = decide(plain, Policy(critical=("a",)))
    assert not verdict.passed
    r = rule(verdict, "critical[a]")
    assert (r.observed, r.threshold) == (1, 0)
    # critical = true in the dataset's field spec counts too
    from_spec = make(truth, v1, v2, {"a": {"type": "string", "critical": True}})
    assert not decide(from_spec, Policy()).passed
    assert decide(scores(8, 9, 10, critical=True), Policy()).passed


def test_significant_regression_uses_alpha() -> None:
    result = scores(10, 4, 10)  # 6 regressed, 0 fixed: exact McNemar p = 2 / 2**6
    verdict = decide(result, Policy())
    assert not verdict.passed
    r = rule(verdict, "significant_regression[a]")
    assert r.observed == pytest.approx(0.03125)
    assert "a significant regression" in r.message
    assert decide(result, Policy(alpha=0.01)).passed
    assert decide(scores(10, 8, 10), Policy()).passed  # 2 regressed: p = 0.5


def test_min_support() -> None:
    result = scores(9, 9, 10)
    assert decide(result, Policy(min_support=10)).passed
    verdict = decide(result, Policy(min_support=11))
    assert [r.name for r in verdict.failed_rules] == ["min_support[a]"]


def test_dropping_values_it_got_wrong_does_not_pass() -> None:
    # v1 emits "x" (wrong) on docs 6..9; v2 simply stops emitting them: its precision is
    # perfect, but the four values are still missed and count against it.
    names = docs(10)
    truth = {d: {"a": "ok"} for d in names}
    v1 = {d: {"a": "ok" if i < 6 else "x"} for i, d in enumerate(names)}
    v2 = {d: ({"a": "ok"} if i < 6 else {}) for i, d in enumerate(names)}
    result = make(truth, v1, v2)
    fields = result.fields.set_index("version")
    assert fields.loc["v2", "precision"] == 1.0
    assert fields.loc["v2", "missed"] == 4
    verdict = decide(result, Policy(min_field_accuracy=0.9, min_accuracy=0.9))
    assert not verdict.passed
    assert rule(verdict, "min_field_accuracy[a]").observed == 0.6
    assert rule(verdict, "min_accuracy").observed == 0.6


def test_dropping_values_it_got_right_is_a_regression() -> None:
    names = docs(10)
    truth = {d: {"a": "ok"} for d in names}
    v1 = {d: {"a": "ok"} for d in names}
    v2 = {d: ({"a": "ok"} if i < 8 else {}) for i, d in enumerate(names)}
    verdict = decide(make(truth, v1, v2), Policy(max_regression=0.1, critical=("a",)))
    assert [r.name for r in verdict.failed_rules] == ["max_regression[a]", "critical[a]"]


def test_line_item_columns_follow_their_array_entry() -> None:
    truth = {"d1": {"items": [{"amount": 1}, {"amount": 2}]}}
    v1 = {"d1": {"items": [{"amount": 1}, {"amount": 2}]}}
    # the row with 3 finds no partner: a missed and a spurious cell, accuracy 1/3
    v2 = {"d1": {"items": [{"amount": 1}, {"amount": 3}]}}
    specs = {"items": {"type": "array", "columns": {"amount": {"type": "number"}}}}
    result = make(truth, v1, v2, specs)
    verdict = decide(result, Policy(critical=("items",), field_min_accuracy={"items": 0.3}))
    assert [r.name for r in verdict.failed_rules] == ["critical[items[].amount]"]
    assert rule(verdict, "min_field_accuracy[items[].amount]").passed


def test_could_not_decide() -> None:
    with pytest.raises(GateError, match="unknown_field"):
        decide(scores(9, 9, 10), Policy(critical=("unknown_field",)))
    with pytest.raises(GateError, match="no documents"):
        decide(scores(9, 9, 10), Policy(), documents=0)
    single = make({"d": {"a": "ok"}}, {"d": {"a": "ok"}}, {"d": {"a": "ok"}})
    no_candidate = dataclasses.replace(single, candidates=())
    with pytest.raises(GateError, match="candidate"):
        decide(no_candidate, Policy())
    assert GateError("x").exit_code == 2


def test_rules_are_in_a_fixed_order() -> None:
    names = docs(10)
    truth = {d: {"b": "ok", "a": "ok"} for d in names}
    out = {d: {"a": "ok", "b": "ok"} for d in names}
    policy = Policy(
        min_accuracy=0.5,
        min_field_accuracy=0.5,
        max_regression=0.1,
        critical=("b",),
        min_support=1,
        max_failed_run_share=0.5,
    )
    verdict = decide(make(truth, out, out), policy)
    assert [r.name for r in verdict.rules] == [
        "min_documents",
        "max_failed_run_share",
        "outputs",
        "min_accuracy",
        "min_support[a]",
        "min_field_accuracy[a]",
        "max_regression[a]",
        "significant_regression[a]",
        "min_support[b]",
        "min_field_accuracy[b]",
        "max_regression[b]",
        "critical[b]",
        "significant_regression[b]",
    ]
    assert all(type(r.observed) is float and type(r.threshold) is float for r in verdict.rules)


def test_output_nobody_declared_is_not_evaluated_and_never_fails() -> None:
    """A candidate outputs ``vat_rate``, which the specs do not declare and no document
    expects: no rule (not even a margin's) is about it. A declared field without expected
    values still fails."""
    names = docs(30)
    truth = {d: {"total": "1.00"} for d in names}
    v1 = {d: {"total": "1.00"} for d in names}
    v2 = {d: {"total": "1.00", "vat_rate": "19"} for d in names}
    result = make(truth, v1, v2, {"total": {"type": "currency"}})
    # overall_margin 0.5: 30 unchanged documents are not evidence at the default 2 pp
    policy = policy_from_mapping({"margin": {"default": 0.5}, "overall_margin": 0.5})
    verdict = decide(result, policy)
    assert verdict.not_evaluated == ("vat_rate",)
    assert not [r for r in verdict.rules if r.field == "vat_rate"]
    assert verdict.status == "pass", verdict.reasons

    declared = make(truth, v1, v2, {"total": {"type": "currency"}, "vat_rate": {"type": "number"}})
    verdict = decide(declared, policy_from_mapping({}))
    assert verdict.not_evaluated == ()
    assert rule(verdict, "support[vat_rate]").status == "fail"
