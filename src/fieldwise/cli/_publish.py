"""``fieldwise publish``: publish a drafted version whose saved verdict passed."""

from __future__ import annotations

from pathlib import Path

import click

from fieldwise.cli._context import CliContext, pass_cli
from fieldwise.cli._loading import RESULTS_DIR_OPTION
from fieldwise.evaluate import publish_passed


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
    version = publish_passed(
        cli.client(),
        runset_id=runset_id,
        processor_id=processor_id,
        version_id=version_id,
        results_dir=results_dir,
        force=force,
        log=lambda m: click.echo(f"warning: {m}", err=True),
    )
    click.echo(f"published {processor_id}/{version.id}")
