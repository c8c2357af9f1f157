"""A small, fully deterministic comparison to render, with every section populated.

24 invoices (inv-00 .. inv-23), fields: invoice_number (string, critical), total (currency,
critical, weight 2), issue_date (date), vendor (text), items (array: description, amount).
Baseline v1 vs candidate v2:
- invoice_number: v1 wrong on inv-03; v2 wrong on inv-05 (a critical regression).
- total: v1 wrong on inv-00..03; v2 fixes all four.
- issue_date: v1 misses inv-10..13; v2 gets them, but misses inv-20.
- vendor: both say "ACME Ltd" for "ACME GmbH" on inv-07 with confidence 0.97
  (a suspected ground-truth error).
- items: v2 drops the second row of inv-15 (missed cells).
v2's run for inv-23 is recorded as failed (its output is still scored: all missed).
Confidences: right values 0.95, wrong ones 0.55.
"""

from __future__ import annotations

import functools
from typing import Any

from fieldwise.compare import ComparisonResult, build_frame, compare, parse_field_specs
from fieldwise.gate import FailedRun, Policy, RuleResult, Verdict, decide
from fieldwise.report import ReportContext, ReportData, build_report

SPECS = parse_field_specs(
    {
        "invoice_number": {"type": "string", "critical": True},
        "total": {"type": "currency", "critical": True, "weight": 2.0},
        "issue_date": {"type": "date"},
        "vendor": {"type": "text", "threshold": 0.95},
        "items": {
            "type": "array",
            "columns": {"description": {"type": "text"}, "amount": {"type": "currency"}},
        },
    }
)
DOCS = [f"inv-{i:02d}" for i in range(24)]


def _truth(i: int) -> dict[str, Any]:
    return {
        "invoice_number": f"INV-{1000 + i}",
        "total": 100.0 + i,
        "issue_date": f"2026-01-{i + 1:02d}",
        "vendor": "ACME GmbH" if i == 7 else f"Vendor {i}",
        "items": [
            {"description": "Widget", "amount": 60.0 + i},
            {"description": "Service <fee> | 50%", "amount": 40.0},
        ],
    }


def _output(i: int, version: str) -> dict[str, Any]:
    t = _truth(i)
    value: dict[str, Any] = dict(t)
    wrong: set[str] = set()
    if version == "v1":
        if i == 3:
            value["invoice_number"] = "INV-1O03"
            wrong.add("invoice_number")
        if i < 4:
            value["total"] = t["total"] + 1
            wrong.add("total")
        if 10 <= i <= 13:
            del value["issue_date"]
    else:
        if i == 5:
            value["invoice_number"] = "INV-1OO5"
            wrong.add("invoice_number")
        if i == 20:
            del value["issue_date"]
        if i == 15:
            value["items"] = value["items"][:1]
    if i == 7:
        value["vendor"] = "ACME Ltd"
    metadata = {k: {"confidence": 0.55 if k in wrong else 0.95} for k in value if k != "items"}
    metadata["vendor"] = {"confidence": 0.97}
    if version == "v2" and i == 23:
        return {}
    return {"value": value, "metadata": metadata}


def sample_result() -> ComparisonResult:
    truth = {d: _truth(i) for i, d in enumerate(DOCS)}
    predictions = {v: {d: _output(i, v) for i, d in enumerate(DOCS)} for v in ("v1", "v2")}
    frame = build_frame(truth, predictions)
    return compare(frame, SPECS, baseline="v1", candidate="v2", seed=7, n_bootstrap=200)


FAILED = (FailedRun(item="inv-23", version="v2", error="timeout after 60 s", run_id="run_23"),)
CONTEXT = ReportContext(
    dataset="invoices",
    generated_at="2026-03-01T12:00:00Z",
    evaluation_set_id="es_123",
    ground_truth_hash="sha256:0f1e2d3c4b5a69788796a5b4c3d2e1f0",
    processor_id="proc_inv",
    baseline_id="v1",
    baseline_label="published v1",
    candidate_id="v2",
    candidate_label="draft v2",
    failed_runs=FAILED,
    document_names={d: f"documents/{d}.pdf" for d in DOCS},
)
POLICY = Policy(min_accuracy=0.9, max_regression=0.05, min_documents=20, source="gate.toml")


def sample_verdict(result: ComparisonResult) -> Verdict:
    return decide(result, POLICY, failed_runs=FAILED)


@functools.cache
def sample_report(*, with_verdict: bool = True) -> ReportData:
    """Built once per process: ReportData is frozen, so tests can share it."""
    result = sample_result()
    verdict = sample_verdict(result) if with_verdict else None
    return build_report(result, CONTEXT, verdict)


def tiny_p_rule() -> RuleResult:
    """A failed significant_regression rule whose Holm-adjusted p (3.8147e-06) printed with
    "%g" reads as an exponent: every output must print "<0.001"."""
    return RuleResult(
        name="significant_regression[total]",
        rule="significant_regression",
        field="total",
        passed=False,
        observed=3.8147e-06,
        threshold=0.05,
        message="total: 20 regressed vs 0 fixed, Holm-adjusted p<0.001; a significant regression",
    )
