"""``fieldwise compare``, ``report``, ``gate`` and ``publish``: read a run set, never re-run."""

from __future__ import annotations

import json
from pathlib import Path

import click

from fieldwise._config import dask_scheduler
from fieldwise._errors import ConfigError
from fieldwise.cli._context import CliContext, json_option, pass_cli
from fieldwise.cli._loading import (
    RESULTS_DIR_OPTION,
    RunsetTarget,
    append_job_summary,
    echo_verdict,
    load_analysis,
    load_regated,
    load_scaled,
    runset_options,
)
from fieldwise.cli._mlflow import mlflow_option
from fieldwise.cli._output import echo_json
from fieldwise.cli._scaled import render_scaled
from fieldwise.cli._shapes import gate_json
from fieldwise.compare import render_table, write_frames
from fieldwise.evaluate import (
    VERDICT_FILE,
    compared_document,
    gated_document,
    save_verdict,
    write_outputs,
)
from fieldwise.gate import Verdict, publish_if_passed
from fieldwise.report import FORMATS, make_environment
from fieldwise.runner import load_runset

_POLICY = click.option(
    "--policy",
    "policy_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Gate policy TOML [default: the dataset's [gate] and critical fields].",
)


_EXECUTOR = click.option(
    "--executor",
    type=click.Choice(["in-process", "dask"]),
    help="Score the run set's cells as partitioned Parquet, shard by shard, in this process or "
    "on a Dask cluster; the figures are reduced from the same mergeable statistics either way "
    "[default: in-process].",
)
_SCHEDULER = click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Dask scheduler for --executor dask, e.g. tcp://host:8786 "
    "[env FIELDWISE_DASK_SCHEDULER; default: a local cluster sized to this machine].",
)


def _formats(value: str) -> list[str]:
    wanted = [f.strip() for f in value.split(",") if f.strip()]
    unknown = [f for f in wanted if f not in FORMATS]
    if unknown or not wanted:
        raise click.BadParameter(f"choose from {', '.join(FORMATS)}", param_hint="--format")
    return wanted


@click.command("compare")
@runset_options
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Also write every comparison table as Parquet into this folder.",
)
@_EXECUTOR
@_SCHEDULER
@click.option("--split", metavar="NAME", help="Only the items of this split (dataset [splits]).")
@json_option
@mlflow_option("compare")
@pass_cli
def compare_cmd(
    cli: CliContext,
    target: RunsetTarget,
    out: Path | None,
    split: str | None,
    executor: str | None,
    scheduler: str | None,
    as_json: bool,
) -> None:
    """Compare the versions of one or more run sets field by field and print the tables.

    Field accuracy (correct / expected) per field and version, strict and cell accuracy,
    precision, recall and F1; each candidate against the baseline: flips (fixed /
    regressed), McNemar p (Holm-adjusted across every candidate), the minimum detectable
    effect beside each non-significant field, and a bootstrap interval of the delta.
    Several RUNSETs are compared side by side only when their ground truth and spec agree
    (else the command names what changed and exits 2, unless --force).
    """
    if as_json:
        # one document whichever executor reduced the figures (docs/json.md)
        where = dask_scheduler(scheduler) if executor == "dask" or scheduler else None
        scaled = load_scaled(
            cli, target, executor or ("dask" if scheduler else "in-process"), where, split=split
        )
        if out is not None:
            write_frames(
                load_analysis(cli, target, with_policy=False, split=split).scored.result, out
            )
        echo_json(compared_document(scaled))
        return
    if executor is not None or scheduler is not None:
        if out is not None:
            raise ConfigError("--out writes the in-process tables; the cell store is the output")
        if split is not None:
            raise ConfigError("--split selects items of the in-process comparison; drop --executor")
        click.echo(
            render_scaled(load_scaled(cli, target, executor or "dask", dask_scheduler(scheduler)))
        )
        return
    analysis = load_analysis(cli, target, with_policy=False, split=split)
    for forced in analysis.report.provenance.forced if analysis.report.provenance else ():
        click.echo(f"FORCED despite: {forced}")
    labels = {v.version_id: v.requested for v in analysis.runset.manifest.versions}
    click.echo(render_table(analysis.scored.result, labels))
    failed = analysis.scored.failed_runs
    if failed:
        names = ", ".join(sorted({f"{f.shown} ({f.version})" for f in failed})[:10])
        click.echo(f"{len(failed)} failed or missing run(s) counted as missed values: {names}")
    if out is not None:
        paths = write_frames(analysis.scored.result, out)
        click.echo(f"wrote {len(paths)} tables to {out}")
    click.echo("executor: in-process, 1 partition (every table; --executor dask to scale out)")


@click.command("report")
@runset_options
@_POLICY
@click.option(
    "--format",
    "formats",
    default="html,md,junit,json",
    show_default=True,
    help="Comma-separated: html, md, junit, json.",
)
@click.option(
    "-o",
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Output folder [default: reports/<dataset>/<time>-<baseline>-vs-<candidate>/].",
)
@json_option
@pass_cli
def report_cmd(
    cli: CliContext,
    target: RunsetTarget,
    policy_path: Path | None,
    formats: str,
    out: Path | None,
    as_json: bool,
) -> None:
    """Render the report of a run set: self-contained HTML, Markdown, JUnit XML, JSON."""
    wanted = _formats(formats)
    analysis = load_analysis(cli, target, policy_path=policy_path)
    paths = write_outputs(
        analysis, wanted, out, make_environment(), documents_root=target.dataset_path
    )
    if as_json:
        shape = gate_json(analysis)
        shape["reports"] = {fmt: str(path) for fmt, path in paths.items()}
        echo_json(shape)
        return
    echo_verdict(analysis)
    for fmt, path in paths.items():
        click.echo(f"{fmt}: {path}")


@click.command("gate")
@runset_options
@_POLICY
@_EXECUTOR
@_SCHEDULER
@json_option
@mlflow_option("gate")
@pass_cli
@click.pass_context
def gate_cmd(
    ctx: click.Context,
    cli: CliContext,
    target: RunsetTarget,
    policy_path: Path | None,
    executor: str | None,
    scheduler: str | None,
    as_json: bool,
) -> None:
    """Decide whether each candidate of a run set may be published.

    Exit 0 pass, 1 fail (reasons printed), 3 inconclusive (a non-inferiority margin the
    documents can neither confirm nor refute), 2 error (could not decide). With several
    candidates the worst verdict sets the exit code. The verdicts are saved with the run set
    for `fieldwise publish`.
    """
    where = dask_scheduler(scheduler) if executor == "dask" or scheduler else None
    if where is not None or executor == "dask":
        # scored on the cluster: the merged statistics are stored with the run set, and the
        # gate below decides from them as it does from statistics reduced in this process
        load_scaled(cli, target, "dask", where)
    regated = load_regated(cli, target, policy_path=policy_path)
    if not regated.verdicts:
        raise ConfigError(f"run set {target.runset_id} has a single version: nothing to gate")
    save_verdict(regated)
    if as_json:
        echo_json(gated_document(regated, executor=executor or "in-process", scheduler=where))
    else:
        echo_verdict(regated)
    if cli.settings.step_summary is not None:
        # the job summary is the report's Markdown, which shows every table of the comparison
        append_job_summary(cli, load_analysis(cli, target, policy_path=policy_path))
    ctx.exit(regated.exit_code)


@click.command("publish")
@click.option("--processor", "processor_id", required=True, help="Processor id.")
@click.option("--version", "version_id", required=True, help="Version id to publish (ver_…).")
@click.option(
    "--runset",
    "runset_id",
    required=True,
    help="Run set whose saved verdict (from gate, report or evaluate) must pass.",
)
@RESULTS_DIR_OPTION
@click.option("--force", is_flag=True, help="Publish even without a passing verdict (logged).")
@pass_cli
def publish_cmd(
    cli: CliContext,
    processor_id: str,
    version_id: str,
    runset_id: str,
    results_dir: Path,
    force: bool,
) -> None:
    """Publish a drafted version, only if the run set's verdict for it passed."""
    runset = load_runset(runset_id, results_dir)
    path = runset.directory / VERDICT_FILE
    if not path.is_file():
        raise ConfigError(
            f"run set {runset_id} has no verdict yet: run `fieldwise gate {runset_id}` first"
        )
    saved = json.loads(path.read_text(encoding="utf-8"))
    if saved.get("processor_id") != processor_id:
        raise ConfigError(
            f"run set {runset_id} evaluated processor "
            f"{saved.get('processor_id')!r}, not {processor_id!r}"
        )
    # the verdict for this version when the run set had several candidates
    mine = [v for v in saved.get("verdicts", []) if v.get("candidate") == version_id]
    chosen = mine[0] if mine else saved
    verdict = Verdict(
        passed=bool(chosen["passed"]),
        reasons=tuple(chosen.get("reasons", ())),
        rules=(),
        baseline=str(saved.get("baseline")),
        candidate=str(chosen.get("candidate")),
        policy_source=str(path),
        status=str(chosen.get("status") or ""),
    )
    version = publish_if_passed(
        cli.client(),
        processor_id,
        version_id,
        verdict,
        force=force,
        log=lambda m: click.echo(f"warning: {m}", err=True),
    )
    click.echo(f"published {processor_id}/{version.id}")
