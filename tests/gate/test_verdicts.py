"""Never a silent pass: the three verdicts and the rules that keep a candidate from winning by
crashing, by emitting less, by cutting lists short or by going quiet on a whole field."""

from __future__ import annotations

from typing import Any

import pytest

from fieldwise.compare import build_frame, compare, parse_field_specs
from fieldwise.gate import FailedRun, GateError, Policy, decide, decide_all
from tests.gate._build import docs, make, scores


def test_one_crashed_document_fails_by_default_and_is_named() -> None:
    result = scores(9, 9, 10)
    crashed = [FailedRun("doc00003", "v2", "failed: timeout", document="documents/doc3.pdf")]
    verdict = decide(result, Policy(), failed_runs=crashed)
    assert (verdict.status, verdict.exit_code) == ("fail", 1)
    assert "documents/doc3.pdf" in verdict.reasons[0]
    assert "1 of 20 runs failed" in verdict.reasons[0]
    # a policy may allow some, explicitly
    assert decide(result, Policy(max_failed_run_share=0.05), failed_runs=crashed).passed


LINE_SPEC = {
    "invoice_number": {"type": "string"},
    "line_items": {
        "type": "array",
        "columns": {
            "description": {"type": "text", "threshold": 0.99},
            "amount": {"type": "number"},
        },
    },
}


def _lines(i: int) -> list[dict[str, Any]]:
    return [
        {"description": "Widget", "amount": 10 + i},
        {"description": "Service fee", "amount": 5},
        {"description": "Consulting hours", "amount": 100 + i},
    ]


def test_truncated_line_items_fail_while_cell_accuracy_rises() -> None:
    """Baseline: every list complete, but the last row's values wrong, and invoice numbers
    mostly wrong. Candidate: fixes every invoice number and drops the last row of every list
    (the rows it used to get wrong), so no cell flips from right to wrong."""
    names = docs(12)
    truth = {d: {"invoice_number": f"N{i}", "line_items": _lines(i)} for i, d in enumerate(names)}
    base, cand = {}, {}
    for i, d in enumerate(names):
        rows = _lines(i)
        rows[2] = {"description": "Consulting hour", "amount": 999}  # matched, both cells wrong
        base[d] = {"invoice_number": f"N{i}" if i < 4 else "?", "line_items": rows}
        cand[d] = {"invoice_number": f"N{i}", "line_items": _lines(i)[:2]}
    result = make(truth, base, cand, LINE_SPEC)
    overall = result.overall.set_index("version")
    assert overall.loc["v2", "accuracy"] > overall.loc["v1", "accuracy"]
    assert overall.loc["v2", "field_accuracy"] > overall.loc["v1", "field_accuracy"]
    lists = result.lists.set_index("version")
    assert lists.loc["v1", "row_recall"] == 1.0
    assert lists.loc["v2", "row_recall"] == pytest.approx(2 / 3)
    assert lists.loc["v2", "truncation_prefix"] == pytest.approx(2 / 3)
    assert lists.loc["v2", "cardinality_error"] == 1.0
    verdict = decide(result, Policy())
    assert verdict.status == "fail"
    assert [r.name for r in verdict.failed_rules] == ["row_recall[line_items]"]
    assert "row recall 100.00% -> 66.67%" in verdict.reasons[0]
    # an explicit allowance lets a small drop through, never a large one
    loose = Policy(alpha=1e-9, max_row_recall_drop=0.5)
    assert decide(result, loose).passed
    assert not decide(result, Policy(alpha=1e-9, max_row_recall_drop=0.2)).passed


def test_an_all_null_candidate_field_fails() -> None:
    """The baseline gets `po` right on 3 of 40 documents; the candidate never emits it. Three
    regressions are not significant, but a column gone silent must not pass."""
    names = docs(40)
    truth = {d: {"a": "ok", "po": f"P{i}"} for i, d in enumerate(names)}
    base = {d: {"a": "ok", "po": f"P{i}" if i < 3 else "x"} for i, d in enumerate(names)}
    cand = {d: {"a": "ok"} for d in names}
    result = make(truth, base, cand)
    sig = result.significance.set_index("field")
    assert not sig.loc["po", "significant"]
    verdict = decide(result, Policy())
    assert [r.name for r in verdict.failed_rules] == ["empty_column[po]"]
    assert "left it empty on all 40 document(s)" in verdict.reasons[0]


def test_an_empty_evaluation_set_is_an_error_not_a_pass() -> None:
    frame = build_frame({}, {"v1": {}, "v2": {}})
    with pytest.raises(Exception, match="not in the comparison frame"):
        compare(frame, {}, baseline="v1", candidate="v2")
    with pytest.raises(GateError, match="no documents"):
        decide(scores(9, 9, 10), Policy(), documents=0)


def test_a_version_without_outputs_fails() -> None:
    names = docs(10)
    truth = {d: {"a": "ok"} for d in names}
    result = make(truth, {d: {"a": "ok"} for d in names}, {})
    verdict = decide(result, Policy(max_failed_run_share=None))
    assert "outputs" in [r.name for r in verdict.failed_rules]
    assert "v2 produced no value on any of the 10 documents" in verdict.reasons


def test_a_declared_field_without_support_is_not_a_pass() -> None:
    names = docs(10)
    truth = {d: {"a": "ok", "b": None} for d in names}
    out = {d: {"a": "ok"} for d in names}
    result = make(truth, out, out, {"a": {"type": "string"}, "b": {"type": "string"}})
    verdict = decide(result, Policy())
    assert [r.name for r in verdict.failed_rules] == ["support[b]"]
    assert "not measured" in verdict.reasons[0]


def test_margin_with_too_few_documents_is_inconclusive() -> None:
    # 10 documents, no change at all: a 2 pp margin can be neither confirmed nor refuted
    verdict = decide(scores(10, 10, 10), Policy(margin=0.02))
    assert (verdict.status, verdict.exit_code) == ("inconclusive", 3)
    assert not verdict.passed
    (unsure,) = verdict.inconclusive_rules
    assert unsure.name == "non_inferiority[a]"
    assert verdict.reasons[0].startswith("inconclusive: a: delta 95% interval")


def test_margin_passes_with_enough_documents_and_fails_beyond_it() -> None:
    assert decide(scores(1000, 1000, 1000), Policy(margin=0.02)).status == "pass"
    worse = decide(scores(1000, 800, 1000), Policy(field_margin={"a": 0.05}))
    assert worse.status == "fail"
    assert [r.name for r in worse.failed_rules] == ["non_inferiority[a]"]
    # a failure elsewhere outranks an inconclusive margin
    mixed = decide(scores(10, 9, 10), Policy(margin=0.02, min_accuracy=0.95))
    assert [r.status for r in mixed.rules if r.rule == "non_inferiority"] == ["inconclusive"]
    assert mixed.status == "fail"
    assert [r.name for r in mixed.failed_rules] == ["min_accuracy"]


def test_three_versions_give_two_verdicts_with_holm_across_them() -> None:
    names = docs(20)
    truth = {d: {"a": "ok"} for d in names}
    outputs = {
        "v1": {d: {"value": {"a": "ok"}} for d in names},
        "v2": {d: {"value": {"a": "ok" if i < 12 else "x"}} for i, d in enumerate(names)},
        "v3": {d: {"value": {"a": "ok"}} for d in names},
    }
    specs = parse_field_specs({"a": {"type": "string"}})
    result = compare(
        build_frame(truth, outputs), specs, baseline="v1", candidates=["v2", "v3"], n_bootstrap=20
    )
    assert result.candidates == ("v2", "v3")
    assert sorted(result.significance["candidate"]) == ["v2", "v3"]
    # Holm over both comparisons: v2's p (2/2^8) doubled by its rank
    sig = result.significance.set_index("candidate")
    assert sig.loc["v2", "p_holm"] == pytest.approx(2 * sig.loc["v2", "p_value"])
    verdicts = decide_all(result, Policy())
    assert [(v.candidate, v.status) for v in verdicts] == [("v2", "fail"), ("v3", "pass")]


def test_ground_truth_without_any_value_cannot_pass() -> None:
    names = docs(5)
    truth: dict[str, dict[str, Any]] = {d: {} for d in names}
    out = {d: {"a": "x"} for d in names}
    with pytest.raises(GateError, match="no expected value in any document"):
        decide(make(truth, out, out), Policy())
