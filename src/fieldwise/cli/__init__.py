"""The ``fieldwise`` command line: a thin layer over the library.

``main`` is the one place where errors become messages and exit codes:
0 success, 1 a failing verdict (commands return it), 2 an error, 130 interrupted.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from fieldwise import __version__
from fieldwise.cli._context import CliContext
from fieldwise.cli.analysis import compare_cmd, gate_cmd, publish_cmd, report_cmd
from fieldwise.cli.datasets import datasets
from fieldwise.cli.evaluate import evaluate_cmd
from fieldwise.cli.evaluation_runs import evaluation_runs
from fieldwise.cli.files import files
from fieldwise.cli.processors import processors, versions
from fieldwise.cli.run import run
from fieldwise.cli.runs import runs
from fieldwise.cli.serve import serve
from fieldwise.cli.sync import sync
from fieldwise.cli.webhooks import webhooks
from fieldwise.cli.worker import worker
from fieldwise.cli.workflows import workflows
from fieldwise.config import client_settings
from fieldwise.errors import FieldwiseError


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="fieldwise")
@click.option(
    "--base-url",
    metavar="URL",
    help="Service to talk to [env FIELDWISE_BASE_URL]. Without it, fieldwise starts "
    "its embedded local service.",
)
@click.option("--api-key", metavar="KEY", help="API key for --base-url [env FIELDWISE_API_KEY].")
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Data folder of the embedded local service [default: .fieldwise/service].",
)
@click.pass_context
def cli(
    ctx: click.Context, base_url: str | None, api_key: str | None, data_dir: Path | None
) -> None:
    """fieldwise: is the drafted processor version better than the published one, field by
    field, and may it be published?

    Every command talks to the Document Processing Service over HTTP: the one at --base-url,
    or an embedded local service started on demand.
    """
    state = CliContext(client_settings(base_url=base_url, api_key=api_key), data_dir=data_dir)
    ctx.obj = state
    ctx.call_on_close(state.close)


for command in (
    evaluate_cmd,
    sync,
    run,
    compare_cmd,
    report_cmd,
    gate_cmd,
    publish_cmd,
    datasets,
    processors,
    versions,
    files,
    runs,
    workflows,
    webhooks,
    serve,
    worker,
    evaluation_runs,
):
    cli.add_command(command)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script; exits with the code of the outcome."""
    try:
        code = cli.main(args=argv, prog_name="fieldwise", standalone_mode=False)
    except FieldwiseError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(2 if exc.exit_code == 1 else exc.exit_code)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


__all__ = ["cli", "main"]
