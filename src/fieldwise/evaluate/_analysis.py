"""One run set → comparison → verdict → report data: what ``compare``, ``report``, ``gate``
and ``evaluate`` share, so the figures of each command are the same figures."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from fieldwise import __version__
from fieldwise.compare import FieldSpec, spec_digest
from fieldwise.evaluate._combine import recorded_spec, runset_truth_hash, training_notes
from fieldwise.evaluate._document import analysis_document
from fieldwise.evaluate._regate import Decided, Regated
from fieldwise.evaluate._scoring import Scored, score_runset
from fieldwise.gate import (
    Policy,
    Verdict,
    decide_all,
    default_policy,
    load_policy,
    policy_from_mapping,
    with_critical,
)
from fieldwise.gate import save_verdict as save_verdicts
from fieldwise.report import ReportContext, ReportData, build_report, default_report_dir
from fieldwise.report import write_report as write_report_files
from fieldwise.runner import LoadedRunSet, verdict_path


@dataclass(frozen=True)
class Analysis(Decided):
    """A scored run set, its verdicts (one per candidate; ``verdict`` is the first) and the
    report data built from them."""

    runset: LoadedRunSet
    scored: Scored
    verdict: Verdict | None
    report: ReportData
    verdicts: tuple[Verdict, ...] = ()

    @property
    def baseline(self) -> str:
        """The baseline version id."""
        return self.scored.baseline

    @property
    def forced(self) -> tuple[str, ...]:
        """What ``--force`` overrode and what the report notes about training items."""
        return self.report.provenance.forced if self.report.provenance else ()


def resolve_policy(
    *,
    policy_path: Path | None,
    dataset_toml: Path | None,
    recorded_gate: Mapping[str, Any] | None,
    specs: Mapping[str, FieldSpec],
) -> Policy:
    """The gate policy: ``--policy`` file, else the dataset's ``[gate]``, else the one
    recorded with the evaluation set; fields marked ``critical`` always count as critical."""
    if policy_path is not None:
        policy = load_policy(policy_path)
    elif dataset_toml is not None:
        policy = load_policy(dataset_toml)
    elif recorded_gate:
        policy = policy_from_mapping(recorded_gate, source="evaluation set gate")
    else:
        policy = default_policy()
    return with_critical(policy, specs)


def analyze(
    runset: LoadedRunSet,
    specs: Mapping[str, FieldSpec],
    policy: Policy | None,
    *,
    generated_at: str,
    baseline: str | None = None,
    candidate: str | None = None,
    candidates: Sequence[str] = (),
    seed: int = 0,
    spec_hash: str | None = None,
    forced: tuple[str, ...] = (),
) -> Analysis:
    """Score the run set (the baseline against every candidate), decide one verdict per
    candidate when there is a policy, and build the report.

    ``spec_hash`` fingerprints the specs used (default: the spec recorded with the run set);
    ``forced`` lists the ground-truth or spec differences ``--force`` overrode.
    """
    alpha = policy.alpha if policy is not None else 0.05
    scored = score_runset(
        runset,
        specs,
        baseline=baseline,
        candidate=candidate,
        candidates=candidates,
        seed=seed,
        alpha=alpha,
    )
    verdicts: tuple[Verdict, ...] = ()
    if policy is not None and scored.candidates:
        verdicts = decide_all(
            scored.result, policy, failed_runs=scored.failed_runs, documents=scored.documents
        )
    manifest = runset.manifest
    labels = {v.version_id: v.label for v in manifest.versions}
    context = ReportContext(
        dataset=manifest.dataset or manifest.eval_set_name or manifest.eval_set_id,
        generated_at=generated_at,
        evaluation_set_id=manifest.eval_set_id,
        ground_truth_hash=runset_truth_hash(runset),
        processor_id=manifest.processor_id,
        baseline_id=scored.baseline,
        baseline_label=labels.get(scored.baseline, ""),
        candidate_id=scored.candidate,
        candidate_label=labels.get(scored.candidate or "", ""),
        failed_runs=scored.failed_runs,
        document_names=scored.item_names,
        version_labels=labels,
        config_hashes={v.version_id: v.config_hash for v in manifest.versions if v.config_hash},
        spec_hash=spec_hash if spec_hash is not None else spec_digest(recorded_spec(runset)),
        policy_hash=policy.digest() if policy is not None else "",
        fieldwise_version=__version__,
        forced=(*forced, *training_notes(runset)),
        run_seconds=run_seconds(runset),
    )
    verdict = verdicts[0] if verdicts else None
    report = build_report(scored.result, context, verdict, verdicts=verdicts)
    return Analysis(runset, scored, verdict, report, verdicts)


def run_seconds(runset: LoadedRunSet) -> dict[str, float]:
    """Seconds the service spent on each version's runs: the sum of their recorded latencies
    (a run served from cache counts what it once took). The report data keeps them per
    version, and JUnit sums them as its ``service_seconds`` property; a JUnit suite's ``time``
    is the command's wall time, not this."""
    total: dict[str, float] = {}
    for record in runset.records:
        if record.latency_ms is not None:
            total[record.version_id] = total.get(record.version_id, 0.0) + record.latency_ms / 1000
    return total


def write_outputs(
    analysis: Analysis,
    formats: list[str],
    out_dir: Path | None,
    env: jinja2.Environment,
    root: Path = Path("reports"),
    documents_root: Path | None = None,
) -> dict[str, Path]:
    """Write the report files, and the verdicts next to the run set's records.

    ``documents_root`` (the dataset folder) lets the HTML link each item to its document and
    show page thumbnails; without it the report names documents only."""
    target = out_dir or default_report_dir(analysis.report, root)
    document = analysis_document(analysis) if "json" in formats else None
    paths = write_report_files(analysis.report, target, formats, env, documents_root, document)
    if analysis.verdicts:
        save_verdict(analysis)
    return paths


def save_verdict(analysis: Analysis | Regated) -> Path:
    """Record the verdicts in the run set folder, where ``fieldwise publish`` checks them."""
    manifest = analysis.runset.manifest
    return save_verdicts(
        verdict_path(analysis.runset.directory),
        analysis.verdicts,
        runset_id=manifest.runset_id,
        processor_id=manifest.processor_id,
    )
