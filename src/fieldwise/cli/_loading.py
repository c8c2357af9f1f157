"""Shared by the commands that read a run set: loading it and what it is scored with."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from fieldwise.cli._context import CliContext
from fieldwise.client import ops
from fieldwise.compare import FieldSpec, parse_field_specs, specs_from_recorded
from fieldwise.compare._provenance import spec_digest
from fieldwise.datasets import load_dataset
from fieldwise.evaluate import (
    Analysis,
    Regated,
    ScaledScore,
    analyze,
    combine_runsets,
    only_split,
    regate,
    resolve_policy,
    score_at_scale,
)
from fieldwise.evaluate._combine import training_notes
from fieldwise.gate import Policy
from fieldwise.report import append_summary
from fieldwise.runner import DEFAULT_RESULTS_DIR, LoadedRunSet, load_runset

F = TypeVar("F", bound=Callable[..., Any])


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class RunsetTarget:
    """Which run sets a command reads (their versions side by side), which versions, where
    the spec comes from, and whether to compare despite differing ground truth or spec."""

    runset_ids: tuple[str, ...]
    baseline: str | None
    candidates: tuple[str, ...]
    dataset_path: Path | None
    results_dir: Path
    force: bool = False

    @property
    def runset_id(self) -> str:
        """The first run set (whose documents and manifest the others are merged into)."""
        return self.runset_ids[0]


RESULTS_DIR_OPTION = click.option(
    "--results-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_RESULTS_DIR,
    show_default=True,
    help="Where run sets are stored.",
)


def runset_options(func: F) -> F:
    """RUNSET... arguments plus the options every run-set command shares, handed to the
    command as one ``target: RunsetTarget`` keyword."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        kwargs["target"] = RunsetTarget(
            runset_ids=tuple(kwargs.pop("runset_ids")),
            baseline=kwargs.pop("baseline"),
            candidates=tuple(kwargs.pop("candidates")),
            dataset_path=kwargs.pop("dataset_path"),
            results_dir=kwargs.pop("results_dir"),
            force=kwargs.pop("force"),
        )
        return func(*args, **kwargs)

    decorators = [
        click.argument("runset_ids", metavar="RUNSET...", nargs=-1, required=True),
        click.option(
            "--baseline",
            metavar="V",
            help="Baseline version id or alias [default: the first run set's first].",
        ),
        click.option(
            "--candidate",
            "candidates",
            metavar="V",
            multiple=True,
            help="Candidate version id or alias; repeat for several "
            "[default: every other version].",
        ),
        click.option(
            "--force",
            is_flag=True,
            help="Compare run sets even when their ground truth or spec differ "
            "(the report says so).",
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


def _specs(cli: CliContext, target: RunsetTarget, runset: LoadedRunSet) -> ResolvedSpecs:
    """The field specs (and where the gate policy comes from) of the dataset folder, else of
    what was recorded with the evaluation set."""
    if target.dataset_path is not None:
        dataset = load_dataset(target.dataset_path)
        specs = parse_field_specs(
            dataset.fields, date_order=dataset.date_order, source=str(dataset.root / "dataset.toml")
        )
        spec_hash = spec_digest({"date_order": dataset.date_order, "fields": dataset.fields})
        return ResolvedSpecs(specs, dataset.root / "dataset.toml", None, spec_hash)
    metadata = _recorded_metadata(cli, runset)
    return ResolvedSpecs(
        specs_from_recorded(metadata.get("compare_spec")), None, metadata.get("gate"), None
    )


@dataclass(frozen=True)
class ResolvedSpecs:
    specs: dict[str, FieldSpec]
    toml: Path | None
    gate: dict[str, Any] | None
    spec_hash: str | None


def load_scaled(
    cli: CliContext,
    target: RunsetTarget,
    executor: str,
    scheduler: str | None,
    *,
    split: str | None = None,
    through_cells: bool = True,
) -> ScaledScore:
    """Load the run sets (refused when not comparable, unless ``target.force``) and score
    them with ``executor`` over their partitioned cells (in-process without
    ``through_cells``: from their stored statistics or scored cells, one partition)."""
    loaded = [load_runset(r, target.results_dir) for r in target.runset_ids]
    combined = combine_runsets(loaded, force=target.force)
    runset = only_split(combined.runset, split)
    scaled = score_at_scale(
        runset,
        _specs(cli, target, runset).specs,
        executor=executor,
        scheduler=scheduler,
        baseline=target.baseline,
        candidates=target.candidates,
        store=split is None and len(loaded) == 1,
        through_cells=through_cells,
    )
    return replace(scaled, forced=combined.forced)


def load_regated(
    cli: CliContext, target: RunsetTarget, *, policy_path: Path | None = None
) -> Regated:
    """Load the run sets (refused when not comparable, unless ``target.force``) and decide
    from their merged statistics: stored with a single run set, so gating it again under
    another policy reads no cell and runs no comparator."""
    loaded = [load_runset(r, target.results_dir) for r in target.runset_ids]
    combined = combine_runsets(loaded, force=target.force)
    runset = combined.runset
    resolved = _specs(cli, target, runset)
    policy = resolve_policy(
        policy_path=policy_path,
        dataset_toml=resolved.toml,
        recorded_gate=resolved.gate,
        specs=resolved.specs,
    )
    return regate(
        runset,
        resolved.specs,
        policy,
        baseline=target.baseline,
        candidates=target.candidates,
        store=len(loaded) == 1,
        forced=(*combined.forced, *training_notes(runset)),
    )


def load_analysis(
    cli: CliContext,
    target: RunsetTarget,
    *,
    policy_path: Path | None = None,
    with_policy: bool = True,
    split: str | None = None,
) -> Analysis:
    """Load the run sets (refused when not comparable, unless ``target.force``) and score
    them, with the spec of the dataset or of the evaluation set."""
    loaded = [load_runset(r, target.results_dir) for r in target.runset_ids]
    combined = combine_runsets(loaded, force=target.force)
    runset = only_split(combined.runset, split)
    resolved = _specs(cli, target, runset)
    specs, toml, gate, spec_hash = resolved.specs, resolved.toml, resolved.gate, resolved.spec_hash
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
        candidates=target.candidates,
        spec_hash=spec_hash,
        forced=combined.forced,
        # one whole run set read by a command: keep its scored cells, so gating it again under
        # another policy runs no comparator (merged run sets and one split are scored each time)
        store=len(loaded) == 1 and split is None,
    )


_WORDS = {
    "pass": ("PASS", "green"),
    "fail": ("FAIL", "red"),
    "inconclusive": ("INCONCLUSIVE", "yellow"),
}


def append_job_summary(cli: CliContext, analysis: Analysis) -> None:
    """Under GitHub Actions (GITHUB_STEP_SUMMARY set), append the Markdown summary to the job's
    summary page, so the verdict shows on the run without opening an artifact."""
    if cli.settings.step_summary is not None:
        append_summary(analysis.report, cli.settings.step_summary)


def echo_verdict(analysis: Analysis | Regated) -> None:
    """Print every candidate's verdict with its reasons (and whether the run was forced)."""
    labels = {v.version_id: v.requested for v in analysis.runset.manifest.versions}

    def name(version_id: str) -> str:
        label = labels.get(version_id, "")
        return f"{label} ({version_id})" if label and label != version_id else version_id

    for forced in analysis.forced:
        click.echo(f"FORCED despite: {forced}")
    for verdict in analysis.verdicts:
        text, colour = _WORDS[verdict.status]
        word = click.style(text, fg=colour, bold=True)
        click.echo(
            f"verdict: {word} — candidate {name(verdict.candidate)} vs "
            f"baseline {name(verdict.baseline)} ({verdict.policy_source})"
        )
        for reason in verdict.reasons:
            click.echo(f"  - {reason}")
        if verdict.not_evaluated:
            click.echo(
                f"  not evaluated (output, but not declared in the dataset): "
                f"{', '.join(verdict.not_evaluated)}"
            )
