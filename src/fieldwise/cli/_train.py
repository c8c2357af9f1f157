"""``fieldwise train``."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from fieldwise.cli._context import CliContext, json_option, pass_cli
from fieldwise.cli._output import echo_json
from fieldwise.cli._shapes import trained_json
from fieldwise.train import TrainOptions, train_dataset


@click.command("train")
@click.argument("dataset", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--split",
    required=True,
    metavar="NAME",
    help="The split to learn from (the dataset's [splits], e.g. train).",
)
@click.option(
    "--processor",
    metavar="ID",
    help="Processor to train a version of [default: the dataset's [processor]].",
)
@click.option(
    "--base-version",
    metavar="VER",
    help="Version whose field specs the model learns [default: the published one].",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    help="Random seed: the same documents, params and seed give the same model bytes.",
)
@click.option(
    "--param",
    "params",
    multiple=True,
    metavar="KEY=VALUE",
    help="A training parameter (max_iter=50, learning_rate=0.05, …; see the service's "
    "training runs); repeat for several.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress output.")
@json_option
@pass_cli
def train_cmd(
    cli: CliContext,
    dataset: Path,
    split: str,
    processor: str | None,
    base_version: str | None,
    seed: int | None,
    params: tuple[str, ...],
    quiet: bool,
    as_json: bool,
) -> None:
    """Train a drafted processor version on a split of DATASET and print it.

    Syncs the dataset, starts a training run on the service (the documents of --split and
    their ground truth), shows its progress on standard error, and prints the drafted version
    it created and its model's hash. Evaluate it on the held-back split with
    `fieldwise evaluate DATASET --candidate trained:latest --split test`; evaluating it on the
    split it was trained on is refused. Ctrl-C cancels the training (no version is made).
    """
    options = TrainOptions(
        split=split,
        processor=processor,
        base_version=base_version,
        seed=seed,
        params=dict(_param(p) for p in params),
    )
    console = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=quiet,
        transient=True,
    ) as bar:
        task = bar.add_task("queued", total=None)

        def stage(text: str) -> None:
            if not quiet:
                bar.console.print(f"[dim]›[/dim] {text}")

        def progress(name: str, done: int, total: int) -> None:
            bar.update(task, description=name or "queued", completed=done, total=total or None)

        trained = train_dataset(cli.connection(), dataset, options, stage=stage, progress=progress)
    if as_json:
        echo_json(trained_json(trained))
        return
    version = trained.version
    click.echo(
        f"drafted version {version.number} ({version.id}) of {trained.processor_id}, trained "
        f"on {len(trained.run.item_ids)} documents of split {split} by {trained.run.id}"
    )
    click.echo(f"  model sha256: {trained.model_sha256}")
    click.echo(
        f"  next: fieldwise evaluate {dataset} --candidate trained:latest --split <held-back split>"
    )


def _param(text: str) -> tuple[str, object]:
    """``KEY=VALUE``: the value read as JSON (numbers, true/false), else as a string."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise click.BadParameter(f"expected KEY=VALUE, got {text!r}", param_hint="--param")
    try:
        value: object = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key.strip(), value
