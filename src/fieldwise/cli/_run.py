"""``fieldwise run``."""

from __future__ import annotations

from pathlib import Path

import click

from fieldwise._shards import parse_shard
from fieldwise.cli._context import CliContext, json_option, pass_cli
from fieldwise.cli._output import echo_json
from fieldwise.cli._progress import RunDisplay
from fieldwise.runner import (
    DEFAULT_RESULTS_DIR,
    WAIT_MODES,
    RunInterrupted,
    RunOptions,
    WebhookListen,
    run_versions,
)


@click.command("run")
@click.option("--eval-set", metavar="NAME_OR_ID", help="Evaluation set, by id (es_…) or name.")
@click.option("--processor", "processor_id", metavar="ID", help="Processor to run.")
@click.option(
    "--version",
    "versions",
    multiple=True,
    metavar="V",
    help="A version: a ver_… id, vN, 'published', 'latest-draft' or 'trained:latest'; repeat "
    "for several.",
)
@click.option("--split", metavar="NAME", help="Only the items of this split (dataset [splits]).")
@click.option(
    "--force",
    is_flag=True,
    help="Run a trained version even on items it was trained on (recorded in the run set).",
)
@click.option(
    "--concurrency",
    default=8,
    show_default=True,
    type=click.IntRange(1, 256),
    help="Runs in flight.",
)
@click.option("--no-cache", is_flag=True, help="Run every pair, even those already computed.")
@click.option("--resume", metavar="RUNSET_ID", help="Run only the missing pairs of a run set.")
@click.option("--retry-failed", is_flag=True, help="With --resume: run failed pairs again too.")
@click.option(
    "--results-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_RESULTS_DIR,
    show_default=True,
    help="Where run sets are stored.",
)
@click.option(
    "--wait",
    type=click.Choice(WAIT_MODES),
    default="poll",
    show_default=True,
    help="How to learn that a run finished: poll it, or receive the service's webhook "
    "events (a slow poll stays as a safety net).",
)
@click.option(
    "--webhook-host",
    metavar="HOST",
    help="With --wait webhooks: address the receiver binds.  [default: 127.0.0.1]",
)
@click.option(
    "--webhook-port",
    type=click.IntRange(0, 65535),
    help="With --wait webhooks: port the receiver binds.  [default: a free one]",
)
@click.option(
    "--webhook-url",
    metavar="URL",
    help="With --wait webhooks: the URL the service calls, when it cannot reach the "
    "receiver at host:port (a remote service, a tunnel).",
)
@click.option(
    "--shard",
    metavar="I/N",
    help="Run only the items whose content hash falls in shard I of N (machines running "
    "1/N..N/N make run sets that `fieldwise runsets merge` joins).",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress on standard error.")
@json_option
@pass_cli
def run(
    cli: CliContext,
    eval_set: str | None,
    processor_id: str | None,
    versions: tuple[str, ...],
    split: str | None,
    force: bool,
    concurrency: int,
    no_cache: bool,
    resume: str | None,
    retry_failed: bool,
    results_dir: Path,
    wait: str,
    webhook_host: str | None,
    webhook_port: int | None,
    webhook_url: str | None,
    shard: str | None,
    quiet: bool,
    as_json: bool,
) -> None:
    """Run processor versions over every item of an evaluation set.

    Every (item, version) pair becomes a processor run; each finished pair is saved at once
    under --results-dir/<runset_id>/. Pairs already computed for the same service, processor,
    version and document content come from the cache. An interrupted run resumes with
    --resume RUNSET_ID, or by running the same command again.

    With --wait webhooks a receiver listens for the runs' completion events (on 127.0.0.1
    unless --webhook-host/--webhook-port/--webhook-url say otherwise) through an endpoint
    registered on the service for this run only.
    """
    if resume is None and not (eval_set and processor_id and versions):
        raise click.UsageError("give --eval-set, --processor and --version, or --resume RUNSET_ID")
    given = (webhook_host, webhook_port, webhook_url)
    if wait != "webhooks" and any(v is not None for v in given):
        raise click.UsageError("--webhook-host/--webhook-port/--webhook-url need --wait webhooks")
    listen = WebhookListen(
        host=webhook_host or "127.0.0.1", port=webhook_port or 0, url=webhook_url
    )
    with RunDisplay(enabled=not (quiet or as_json)) as display:
        try:
            options = RunOptions(
                eval_set=eval_set or "",
                processor_id=processor_id or "",
                versions=tuple(versions),
                concurrency=concurrency,
                use_cache=not no_cache,
                resume=resume,
                retry_failed=retry_failed,
                results_dir=results_dir,
                progress=display.update,
                wait=wait,
                webhook=listen,
                shard=None if shard is None else parse_shard(shard),
                split=split,
                force=force,
            )
            result = run_versions(cli.connection(), options)
        except RunInterrupted as exc:  # a resume command that works as printed
            words = ["run", "--resume", exc.runset.runset_id]
            if results_dir != DEFAULT_RESULTS_DIR:
                words += ["--results-dir", str(results_dir)]
            raise RunInterrupted(exc.runset, command=cli.command(*words)) from None
    if as_json:
        echo_json(result.summary())
        return
    shown = ", ".join(v.described for v in result.manifest.versions)
    click.echo(
        f"run set {result.runset_id}: {result.manifest.eval_set_name} x {shown} "
        f"on {result.manifest.processor_id}"
    )
    click.echo(
        f"  {result.done}/{result.total} pairs: {result.succeeded} succeeded, "
        f"{result.failed} failed, {result.cached} cached, {result.resumed} from before; "
        f"{result.new_runs} new runs in {result.elapsed_s:.1f}s"
    )
    click.echo(f"  results: {result.directory}")
