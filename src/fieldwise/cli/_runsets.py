"""Shared by the commands that read a run set: loading it and what it is scored with."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from fieldwise.cli._context import CliContext
from fieldwise.client import ops
from fieldwise.compare import FieldSpec, parse_field_specs, specs_from_recorded
from fieldwise.datasets import load_dataset
from fieldwise.evaluate import Analysis, analyze, resolve_policy
from fieldwise.gate import Policy
from fieldwise.runner import DEFAULT_RESULTS_DIR, LoadedRunSet, load_runset

F = TypeVar("F", bound=Callable[..., Any])


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class RunsetTarget:
    """Which run set a command reads, which of its versions, and where the spec comes from."""

    runset_id: str
    baseline: str | None
    candidate: str | None
    dataset_path: Path | None
    results_dir: Path


RESULTS_DIR_OPTION = click.option(
    "--results-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_RESULTS_DIR,
    show_default=True,
    help="Where run sets are stored.",
)


def runset_options(func: F) -> F:
    """RUNSET argument plus the options every run-set command shares, handed to the command
    as one ``target: RunsetTarget`` keyword."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        kwargs["target"] = RunsetTarget(
            runset_id=kwargs.pop("runset_id"),
            baseline=kwargs.pop("baseline"),
            candidate=kwargs.pop("candidate"),
            dataset_path=kwargs.pop("dataset_path"),
            results_dir=kwargs.pop("results_dir"),
        )
        return func(*args, **kwargs)

    decorators = [
        click.argument("runset_id", metavar="RUNSET"),
        click.option(
            "--baseline",
            metavar="V",
            help="Baseline version id or alias [default: the run set's first].",
        ),
        click.option(
            "--candidate",
            metavar="V",
            help="Candidate version id or alias [default: the run set's second].",
        ),
        click.option(
            "--dataset",
            "dataset_path",
            type=click.Path(file_okay=False, path_type=Path),
            help="Read field specs (and [gate]) from this dataset folder instead of "
            "what was recorded with the evaluation set.",
        ),
        RESULTS_DIR_OPTION,
    ]
    command: Any = wrapper
    for decorator in reversed(decorators):
        command = decorator(command)
    return cast(F, command)


def _recorded_metadata(cli: CliContext, runset: LoadedRunSet) -> dict[str, Any]:
    recorded = runset.manifest.arguments.get("eval_set_metadata")
    if isinstance(recorded, dict):
        return recorded
    return dict(cli.client().call(ops.get_evaluation_set(runset.manifest.eval_set_id)).metadata)


def load_analysis(
    cli: CliContext,
    target: RunsetTarget,
    *,
    policy_path: Path | None = None,
    with_policy: bool = True,
) -> Analysis:
    """Load a run set and score it, with the spec of the dataset or of the evaluation set."""
    runset = load_runset(target.runset_id, target.results_dir)
    dataset_path = target.dataset_path
    specs: dict[str, FieldSpec]
    gate: dict[str, Any] | None = None
    if dataset_path is not None:
        dataset = load_dataset(dataset_path)
        specs = parse_field_specs(
            dataset.fields, date_order=dataset.date_order, source=str(dataset.root / "dataset.toml")
        )
        toml: Path | None = dataset.root / "dataset.toml"
    else:
        metadata = _recorded_metadata(cli, runset)
        specs = specs_from_recorded(metadata.get("compare_spec"))
        gate = metadata.get("gate")
        toml = None
    policy: Policy | None = None
    if with_policy:
        policy = resolve_policy(
            policy_path=policy_path, dataset_toml=toml, recorded_gate=gate, specs=specs
        )
    return analyze(
        runset,
        specs,
        policy,
        generated_at=now_iso(),
        baseline=target.baseline,
        candidate=target.candidate,
    )


def echo_verdict(analysis: Analysis) -> None:
    verdict = analysis.verdict
    if verdict is None:
        return
    report = analysis.report

    def name(label: str, version_id: str) -> str:
        return f"{label} ({version_id})" if label and label != version_id else version_id

    word = (
        click.style("PASS", fg="green", bold=True)
        if verdict.passed
        else click.style("FAIL", fg="red", bold=True)
    )
    click.echo(
        f"verdict: {word} — candidate {name(report.candidate_label, verdict.candidate)} vs "
        f"baseline {name(report.baseline_label, verdict.baseline)} ({verdict.policy_source})"
    )
    for reason in verdict.reasons:
        click.echo(f"  - {reason}")
