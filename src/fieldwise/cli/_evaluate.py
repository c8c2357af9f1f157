"""``fieldwise evaluate``: the main job in one command."""

from __future__ import annotations

from pathlib import Path

import click

from fieldwise.cli._context import CliContext, json_option, pass_cli
from fieldwise.cli._loading import append_job_summary, echo_verdict
from fieldwise.cli._mlflow import MLFLOW_OPTION, log_outcome
from fieldwise.cli._output import echo_json
from fieldwise.cli._progress import RunDisplay
from fieldwise.cli._shapes import evaluation_json
from fieldwise.evaluate import EvaluationOptions, analysis_document, evaluate, now_iso
from fieldwise.report import FORMATS
from fieldwise.runner import RunInterrupted


@click.command("evaluate")
@click.argument("dataset", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--processor",
    metavar="ID_OR_NAME",
    help="Evaluate this processor already on the service (an id or a unique name) instead of "
    "setting up the dataset's [processor] configs; --baseline/--candidate name its versions.",
)
@click.option(
    "--baseline",
    default="published",
    show_default=True,
    help="Baseline version: a ver_… id, vN, 'published', 'latest-draft' or 'trained:latest'.",
)
@click.option(
    "--candidate",
    "candidates",
    multiple=True,
    default=("latest-draft",),
    show_default=True,
    help="Candidate version: a ver_… id, vN, 'published', 'latest-draft' or 'trained:latest'; "
    "repeat for several (each is compared with the baseline).",
)
@click.option(
    "--split", metavar="NAME", help="Evaluate on the items of this split only (dataset [splits])."
)
@click.option(
    "--force",
    is_flag=True,
    help="Evaluate a trained version even on items it was trained on (the report says so).",
)
@click.option(
    "--policy",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Gate policy TOML [default: the dataset's [gate] and critical fields].",
)
@click.option("--publish", is_flag=True, help="Publish the candidate if the gate passes.")
@click.option(
    "--format",
    "formats",
    default=",".join(FORMATS),
    show_default=True,
    help="Report formats, comma-separated.",
)
@click.option(
    "-o",
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Report folder [default: reports/<dataset>/<time>-<baseline>-vs-<candidate>/].",
)
@click.option(
    "--concurrency",
    default=8,
    show_default=True,
    type=click.IntRange(1, 256),
    help="Processor runs in flight.",
)
@click.option("--no-cache", is_flag=True, help="Re-run pairs computed before.")
@click.option("--quiet", "-q", is_flag=True, help="No progress output.")
@MLFLOW_OPTION
@json_option
@pass_cli
@click.pass_context
def evaluate_cmd(
    ctx: click.Context,
    cli: CliContext,
    dataset: Path,
    processor: str | None,
    baseline: str,
    candidates: tuple[str, ...],
    split: str | None,
    force: bool,
    policy: Path | None,
    publish: bool,
    formats: str,
    out: Path | None,
    concurrency: int,
    no_cache: bool,
    quiet: bool,
    mlflow_uri: str | None,
    as_json: bool,
) -> None:
    """Evaluate a dataset end to end: sync → run → compare → report → gate (→ publish).

    With no --base-url this uses the embedded local service, and creates the dataset's
    processor from its shipped configs (the dataset.toml [processor] table: baseline
    published, candidate drafted) if needed; with --processor it evaluates a processor already
    on the service instead.
    Exit 0 when the candidate passes the gate, 1 when it fails, 3 when the verdict is
    inconclusive (a margin the documents cannot decide), 2 on errors. Progress goes to
    standard error, results to standard output.
    """
    options = EvaluationOptions(
        baseline=baseline,
        candidate=candidates[0],
        candidates=candidates,
        policy=policy,
        publish=publish,
        formats=tuple(f.strip() for f in formats.split(",") if f.strip()),
        out_dir=out,
        concurrency=concurrency,
        use_cache=not no_cache,
        split=split,
        force=force,
        processor=processor,
    )
    # the stages show unless --quiet; the run step's counts also stop for --json
    with RunDisplay(enabled=not quiet, counts=not as_json) as display:
        try:
            outcome = evaluate(
                cli.connection(),
                dataset,
                options,
                generated_at=now_iso(),
                stage=display.note,
                progress=display.update,
            )
        except RunInterrupted as exc:  # the same command again resumes; so does this one
            command = cli.command("run", "--resume", exc.runset.runset_id)
            raise RunInterrupted(exc.runset, command=command) from None
    for note in outcome.notes:  # e.g. a remote service without the verdict extension
        click.echo(f"note: {note}", err=True)
    if as_json:
        # one document, printed and (with --mlflow) logged
        document = analysis_document(outcome.analysis)
        echo_json(evaluation_json(outcome, document))
        append_job_summary(cli, outcome.analysis)
        log_outcome(mlflow_uri, outcome, document)
        ctx.exit(outcome.analysis.exit_code)
    runset = outcome.runset
    click.echo(
        f"run set {runset.runset_id}: {runset.done} pairs ({runset.cached} cached, "
        f"{runset.failed} failed)"
    )
    figures = outcome.analysis.report.versions
    refs = {v.version_id: v for v in runset.manifest.versions}

    def shown(value: float | None) -> str:
        return "-" if value is None else f"{value:.1%}"

    base = figures[0].field_accuracy
    for cand in figures[1:]:
        ref = refs.get(cand.version)
        which = f" ({ref.described if ref else cand.version})" if len(figures) > 2 else ""
        acc = cand.field_accuracy
        click.echo(
            f"field accuracy (correct / expected): baseline {shown(base.value)} "
            f"[{shown(base.low)}, {shown(base.high)}] → candidate {shown(acc.value)} "
            f"[{shown(acc.low)}, {shown(acc.high)}]{which}"
        )
    echo_verdict(outcome.analysis)
    append_job_summary(cli, outcome.analysis)
    if outcome.published is not None:
        ref = refs.get(outcome.published.id)
        shown_as = ref.described if ref is not None else outcome.published.id
        click.echo(f"published {shown_as} of {outcome.setup.processor_id}")
    report = outcome.report_paths.get("html") or next(iter(outcome.report_paths.values()), None)
    if report is not None:
        click.echo(f"report: {report}")
    log_outcome(mlflow_uri, outcome)
    ctx.exit(outcome.analysis.exit_code)
