"""Shared by the commands that read a run set: the RUNSET... options, and the adapters that
hand them to the library (:mod:`fieldwise.evaluate` opens, merges, scores and decides)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from fieldwise.cli._context import CliContext
from fieldwise.evaluate import (
    Analysis,
    Regated,
    RunsetSelection,
    ScaledScore,
    analyze_runsets,
    regate_runsets,
    score_runsets_at_scale,
)
from fieldwise.report import append_summary
from fieldwise.runner import DEFAULT_RESULTS_DIR

F = TypeVar("F", bound=Callable[..., Any])


#: What the RUNSET... options select (the library's own value: commands pass it on as is).
RunsetTarget = RunsetSelection


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
            help="Baseline version: an id, vN, or an alias as the run set's `run` read it "
            "[default: the first run set's first].",
        ),
        click.option(
            "--candidate",
            "candidates",
            metavar="V",
            multiple=True,
            help="Candidate version: an id, vN or an alias; repeat for several "
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


def load_scaled(
    cli: CliContext,
    target: RunsetTarget,
    executor: str | None,
    scheduler: str | None,
    *,
    split: str | None = None,
) -> ScaledScore:
    """Score the run sets with ``executor`` over their partitioned cells (without one: from
    their stored statistics, one partition)."""
    return score_runsets_at_scale(
        target, cli.client, executor=executor, scheduler=scheduler, split=split
    )


def load_regated(
    cli: CliContext, target: RunsetTarget, *, policy_path: Path | None = None
) -> Regated:
    """Decide from the run sets' merged statistics (no comparator runs when they are stored)."""
    return regate_runsets(target, cli.client, policy_path=policy_path)


def load_analysis(
    cli: CliContext,
    target: RunsetTarget,
    *,
    policy_path: Path | None = None,
    with_policy: bool = True,
    split: str | None = None,
) -> Analysis:
    """Score the run sets with every table, decide and build the report data."""
    return analyze_runsets(
        target,
        cli.client,
        policy_path=policy_path,
        with_policy=with_policy,
        split=split,
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
    refs = {v.version_id: v for v in analysis.runset.manifest.versions}

    def name(version_id: str) -> str:
        ref = refs.get(version_id)
        return ref.described if ref is not None else version_id

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
