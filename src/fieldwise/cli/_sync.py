"""``fieldwise sync``."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from fieldwise._config import service_settings
from fieldwise.cli._context import CliContext, json_option, pass_cli
from fieldwise.cli._output import echo_json
from fieldwise.cli._shapes import sync_json
from fieldwise.datasets import Dataset, load_dataset
from fieldwise.sync import SyncResult, record_sync, sync_dataset, unchanged_sync

STATE_DIR = Path(".fieldwise")


@click.command()
@click.argument("dataset", type=click.Path(file_okay=False, path_type=Path))
@click.option("--eval-set", help="Evaluation set name [default: the dataset's name].")
@click.option("--dry-run", is_flag=True, help="Print the plan; change nothing.")
@click.option(
    "--keep-removed",
    is_flag=True,
    help="Report items whose file left the dataset instead of deleting them.",
)
@click.option(
    "--force",
    is_flag=True,
    help="Sync into an evaluation set another dataset folder made (its items are replaced).",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@json_option
@pass_cli
def sync(
    cli: CliContext,
    dataset: Path,
    eval_set: str | None,
    dry_run: bool,
    keep_removed: bool,
    force: bool,
    quiet: bool,
    as_json: bool,
) -> None:
    """Make an evaluation set mirror the local DATASET folder.

    Validates the whole dataset first (every problem, with file and line), then uploads only
    documents the service does not hold yet, creates new items, PATCHes changed ground truth
    and deletes items whose document left the dataset. Running it again on an unchanged
    dataset writes nothing. An evaluation set made from another folder with the same
    [dataset] name is refused unless --force.
    """
    loaded = load_dataset(dataset)
    for warning in loaded.warnings:
        click.echo(f"warning: {warning}", err=True)
    data_dir = _embedded_data_dir(cli)
    known = None
    if data_dir is not None:
        known = unchanged_sync(
            loaded,
            state_dir=STATE_DIR,
            service_identity=f"local:{data_dir}",
            data_dir=data_dir,
            eval_set=eval_set,
            keep_removed=keep_removed,
        )
    if known is not None:  # nothing can have changed: the service is not even started
        eval_set_id, plan, gt_hash = known
        name = eval_set or loaded.name
        result = SyncResult(eval_set_id, name, plan, gt_hash, dry_run=dry_run)
    else:
        result = _sync(cli, loaded, eval_set, dry_run, keep_removed, quiet, force)
        embedded = cli.connection().embedded
        if (
            data_dir is not None
            and embedded is not None
            and not result.dry_run
            and result.local is not None
        ):
            cli.close()  # stop the embedded service, so its files settle before the record
            embedded.thread.join(60)  # stop() waits 10 s; its database closes at the very end
            record_sync(
                result.local,
                state_dir=STATE_DIR,
                service_identity=f"local:{data_dir}",
                eval_set_name=result.eval_set_name,
                eval_set_id=result.eval_set_id or "",
                data_dir=data_dir,
                keep_removed=keep_removed,
                kept_removed=bool(result.plan.kept_removed),
                settled=not embedded.thread.is_alive(),
            )
    _print(loaded, result, as_json)


def _print(loaded: Dataset, result: SyncResult, as_json: bool) -> None:
    if as_json:
        echo_json(sync_json(loaded, result))
        return
    counts = result.plan.counts()
    verb = "would" if result.dry_run else "did"
    click.echo(
        f"{'plan' if result.dry_run else 'synced'}: {loaded.name} -> evaluation set "
        f"{result.eval_set_name} ({result.eval_set_id or 'not created yet'})"
    )
    click.echo(
        f"  {verb}: create {counts['create']}, update {counts['update']}, replace "
        f"{counts['replace']}, delete {counts['delete']}, upload {counts['upload']}; "
        f"unchanged {counts['unchanged']}"
    )
    for item in result.plan.kept_removed:
        click.echo(f"  kept (file left the dataset): {item.path} ({item.id})")
    click.echo(f"  ground truth {result.ground_truth_hash[:12]}")


def _embedded_data_dir(cli: CliContext) -> Path | None:
    """The embedded service's data folder when this command would start it on SQLite there;
    None for a remote service or a database URL (whose writes no local file shows)."""
    if cli.settings.base_url:
        return None
    settings = service_settings(data_dir=cli.data_dir)
    if settings.database_url:
        return None
    return settings.data_dir.resolve()


def _sync(
    cli: CliContext,
    loaded: Dataset,
    eval_set: str | None,
    dry_run: bool,
    keep_removed: bool,
    quiet: bool,
    force: bool = False,
) -> SyncResult:
    connection = cli.connection()
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=quiet,
        transient=True,
    ) as bar:
        task = bar.add_task("syncing", total=None)

        def advance(_stage: str, n: int) -> None:
            bar.advance(task, n)

        return sync_dataset(
            cli.client(),
            loaded,
            state_dir=STATE_DIR,
            service_identity=connection.identity,
            eval_set=eval_set,
            dry_run=dry_run,
            keep_removed=keep_removed,
            progress=advance,
            force=force,
        )
