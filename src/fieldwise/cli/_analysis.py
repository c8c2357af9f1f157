"""``fieldwise compare``, ``report``, ``gate`` and ``publish``: read a run set, never re-run."""

from __future__ import annotations

from pathlib import Path

import click

from fieldwise._config import dask_scheduler
from fieldwise._errors import ConfigError
from fieldwise.cli._compare_table import render_table
from fieldwise.cli._context import CliContext, json_option, pass_cli
from fieldwise.cli._loading import (
    RunsetTarget,
    append_job_summary,
    echo_verdict,
    load_analysis,
    load_regated,
    load_scaled,
    runset_options,
)
from fieldwise.cli._mlflow import mlflow_option, track
from fieldwise.cli._output import echo_json
from fieldwise.compare import write_frames
from fieldwise.evaluate import (
    Regated,
    analysis_document,
    compared_document,
    gated_document,
    record_at_service,
    save_verdict,
    write_outputs,
)
from fieldwise.report import FORMATS, make_environment

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


def _executor_line(executor: str, scheduler: str | None, partitions: int) -> str:
    where = ""
    if executor == "dask":
        where = f" on {scheduler}" if scheduler else " on a local cluster"
    return f"executor: {executor}{where}, {partitions} partition{'' if partitions == 1 else 's'}"


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
@mlflow_option
@pass_cli
def compare_cmd(
    cli: CliContext,
    target: RunsetTarget,
    out: Path | None,
    split: str | None,
    executor: str | None,
    scheduler: str | None,
    as_json: bool,
    mlflow_uri: str | None,
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
        # without --executor (or --scheduler) the run set is one partition, read from what
        # is stored
        scaled = load_scaled(
            cli, target, executor or ("dask" if scheduler else None), where, split=split
        )
        if out is not None:
            write_frames(
                load_analysis(cli, target, with_policy=False, split=split).scored.result, out
            )
        document = compared_document(scaled)
        echo_json(document)
        track(mlflow_uri, "compare", document, scaled.runset)
        return
    if executor is not None or scheduler is not None:
        if out is not None:
            raise ConfigError("--out writes the in-process tables; the cell store is the output")
        if split is not None:
            raise ConfigError("--split selects items of the in-process comparison; drop --executor")
        scaled = load_scaled(cli, target, executor or "dask", dask_scheduler(scheduler))
        click.echo(
            render_table(
                scaled.result, {v.version_id: v.label for v in scaled.runset.manifest.versions}
            ),
            nl=False,
        )
        if scaled.failed_runs:
            click.echo(
                f"{len(scaled.failed_runs)} failed or missing run(s) counted as missed values"
            )
        click.echo(
            _executor_line(scaled.result.executor, scaled.scheduler, scaled.result.partitions)
        )
        if mlflow_uri is not None:
            track(mlflow_uri, "compare", compared_document(scaled), scaled.runset)
        return
    analysis = load_analysis(cli, target, with_policy=False, split=split)
    for forced in analysis.report.provenance.forced if analysis.report.provenance else ():
        click.echo(f"FORCED despite: {forced}")
    labels = {v.version_id: v.label for v in analysis.runset.manifest.versions}
    click.echo(render_table(analysis.scored.result, labels))
    failed = analysis.scored.failed_runs
    if failed:
        names = ", ".join(sorted({f"{f.shown} ({f.version})" for f in failed})[:10])
        click.echo(f"{len(failed)} failed or missing run(s) counted as missed values: {names}")
    if out is not None:
        paths = write_frames(analysis.scored.result, out)
        click.echo(f"wrote {len(paths)} tables to {out}")
    click.echo(
        _executor_line("in-process", None, 1) + " (every table; --executor dask to scale out)"
    )
    if mlflow_uri is not None:
        track(mlflow_uri, "compare", analysis_document(analysis), analysis.runset)


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
        shape = analysis_document(analysis)
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
@mlflow_option
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
    mlflow_uri: str | None,
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
    document = gated_document(regated, executor=executor or "in-process", scheduler=where)
    if as_json:
        echo_json(document)
    else:
        echo_verdict(regated)
    # a failing verdict is a result too: logged whatever the exit code
    track(mlflow_uri, "gate", document, regated.runset)
    if cli.settings.step_summary is not None:
        # the job summary is the report's Markdown, which shows every table of the comparison
        append_job_summary(cli, load_analysis(cli, target, policy_path=policy_path))
    _record_at_service(cli, regated)
    ctx.exit(regated.exit_code)


def _record_at_service(cli: CliContext, regated: Regated) -> None:
    """Send the verdicts to the service the run set ran on (its console asks for a typed
    confirmation before publishing a version that did not pass), when one is running: the
    gate decides from files and does not start the embedded service only to record."""
    from fieldwise._connection import identity_of  # the service's modules load on first use

    record_at_service(
        regated,
        identity=identity_of(cli.settings, data_dir=cli.data_dir),
        client=cli.client if cli.serving() else None,
        note=lambda message: click.echo(f"note: {message}", err=True),
    )
