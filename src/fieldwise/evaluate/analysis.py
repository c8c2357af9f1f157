"""One run set → comparison → verdict → report data: what ``compare``, ``report``, ``gate``
and ``evaluate`` share, so the figures of each command are the same figures."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import jinja2

from fieldwise.compare import FieldSpec
from fieldwise.evaluate.scoring import Scored, score_runset
from fieldwise.gate import Policy, Verdict, decide, load_policy, policy_from_mapping
from fieldwise.report import ReportContext, ReportData, build_report, default_report_dir
from fieldwise.report import write_report as write_report_files
from fieldwise.runner import LoadedRunSet

VERDICT_FILE = "verdict.json"


@dataclass(frozen=True)
class Analysis:
    runset: LoadedRunSet
    scored: Scored
    verdict: Verdict | None
    report: ReportData


def resolve_policy(
    *,
    policy_path: Path | None,
    dataset_toml: Path | None,
    recorded_gate: Mapping[str, Any] | None,
    specs: Mapping[str, FieldSpec],
) -> Policy:
    """The gate policy: ``--policy`` file, else the dataset's ``[gate]``, else the one
    recorded with the evaluation set; fields marked ``critical`` always count as critical."""
    critical = tuple(sorted(name for name, spec in specs.items() if spec.critical))
    if policy_path is not None:
        policy = load_policy(policy_path)
    elif dataset_toml is not None:
        policy = load_policy(dataset_toml)
    elif recorded_gate:
        policy = policy_from_mapping(recorded_gate, source="evaluation set gate")
    else:
        policy = Policy(source="default policy")
    merged = tuple(sorted(set(policy.critical) | set(critical)))
    if merged == policy.critical:
        return policy
    return replace(policy, critical=merged)


def analyze(
    runset: LoadedRunSet,
    specs: Mapping[str, FieldSpec],
    policy: Policy | None,
    *,
    generated_at: str,
    baseline: str | None = None,
    candidate: str | None = None,
    seed: int = 0,
) -> Analysis:
    """Score the run set, decide (when there is a candidate and a policy) and build the report."""
    scored = score_runset(runset, specs, baseline=baseline, candidate=candidate, seed=seed)
    verdict = None
    if policy is not None and scored.candidate is not None:
        verdict = decide(
            scored.result, policy, failed_runs=scored.failed_runs, documents=scored.documents
        )
    manifest = runset.manifest
    labels = {v.version_id: v.requested for v in manifest.versions}
    context = ReportContext(
        dataset=manifest.dataset or manifest.eval_set_name or manifest.eval_set_id,
        generated_at=generated_at,
        evaluation_set_id=manifest.eval_set_id,
        ground_truth_hash=manifest.ground_truth_hash or "",
        processor_id=manifest.processor_id,
        baseline_id=scored.baseline,
        baseline_label=labels.get(scored.baseline, ""),
        candidate_id=scored.candidate,
        candidate_label=labels.get(scored.candidate or "", ""),
        failed_runs=scored.failed_runs,
        document_names=scored.item_names,
    )
    report = build_report(scored.result, context, verdict)
    return Analysis(runset, scored, verdict, report)


def write_outputs(
    analysis: Analysis,
    formats: list[str],
    out_dir: Path | None,
    env: jinja2.Environment,
    root: Path = Path("reports"),
) -> dict[str, Path]:
    """Write the report files, and the verdict next to the run set's records."""
    target = out_dir or default_report_dir(analysis.report, root)
    paths = write_report_files(analysis.report, target, formats, env)
    if analysis.verdict is not None:
        save_verdict(analysis)
    return paths


def save_verdict(analysis: Analysis) -> Path:
    """Record the verdict in the run set folder, where ``fieldwise publish`` checks it."""
    verdict = analysis.verdict
    assert verdict is not None
    path = analysis.runset.directory / VERDICT_FILE
    payload = {
        "runset_id": analysis.runset.manifest.runset_id,
        "processor_id": analysis.runset.manifest.processor_id,
        "baseline": analysis.scored.baseline,
        "candidate": analysis.scored.candidate,
        "passed": verdict.passed,
        "reasons": list(verdict.reasons),
    }
    path.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path
