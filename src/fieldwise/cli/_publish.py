"""``fieldwise publish``: publish a drafted version whose saved verdict passed."""

from __future__ import annotations

from pathlib import Path

import click

from fieldwise.cli._context import CliContext, pass_cli
from fieldwise.cli._loading import RESULTS_DIR_OPTION
from fieldwise.evaluate import publish_passed


@click.command("publish")
@click.option(
    "--processor", "processor_id", default=None, help="Processor id [default: the run set's]."
)
@click.option(
    "--version",
    "version",
    required=True,
    help="Version to publish: a ver_… id, vN, 'published', 'latest-draft' or 'trained:latest' "
    "(read as `run` reads it).",
)
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
    processor_id: str | None,
    version: str,
    runset_id: str,
    results_dir: Path,
    force: bool,
) -> None:
    """Publish a drafted version, only if the run set's verdict for it passed."""
    published = publish_passed(
        cli.client(),
        runset_id=runset_id,
        version=version,
        processor_id=processor_id,
        results_dir=results_dir,
        force=force,
        log=lambda m: click.echo(f"warning: {m}", err=True),
    )
    name = f"v{published.number}"
    typed = f"{version} = {name}" if version not in (name, published.id) else name
    click.echo(f"published {typed} of {published.processor_id} ({published.id})")
