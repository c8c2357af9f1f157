"""``fieldwise sync``."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from fieldwise.cli._context import CliContext, json_option, pass_cli
from fieldwise.cli._output import echo_json
from fieldwise.cli._shapes import sync_json
from fieldwise.datasets import Dataset, load_dataset
from fieldwise.sync import SyncResult, hash_cache, sync_dataset

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
    with hash_cache(STATE_DIR) as hashes:
        loaded = load_dataset(dataset, hashes=hashes)
    for warning in loaded.warnings:
        click.echo(f"warning: {warning}", err=True)
    result = _sync(cli, loaded, eval_set, dry_run, keep_removed, quiet, force)
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
