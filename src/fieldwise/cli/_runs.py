"""``fieldwise runs``: processor runs (create, show, list, cancel, delete)."""

from __future__ import annotations

import time

import click

from fieldwise.cli._context import CliContext, json_option, pass_cli
from fieldwise.cli._output import echo_record, echo_rows
from fieldwise.client import Run, ops

_RUN_FIELDS = (
    "id",
    "processor_id",
    "version_id",
    "status",
    "input_path",
    "output_uri",
    "failure_reason",
    "failure_message",
    "attempts",
    "queued_at",
    "started_at",
    "finished_at",
    "duration_ms",
)
_TERMINAL = ("succeeded", "failed", "canceled")
_STATES = click.Choice(["queued", "in_progress", "succeeded", "failed", "canceled"])


def wait_for_run(cli: CliContext, processor_id: str, run: Run, timeout: float) -> Run:
    """Poll until the run is finished or ``timeout`` seconds passed."""
    deadline = time.monotonic() + timeout
    while run.status not in _TERMINAL and time.monotonic() < deadline:
        time.sleep(0.2)
        run = cli.client().call(ops.get_run(processor_id, run.id))
    return run


@click.group()
def runs() -> None:
    """Start, inspect, cancel and delete processor runs."""


@runs.command("create")
@click.argument("processor_id")
@click.argument("input_path")
@click.option("--version-id", help="Version to run [default: the published one].")
@click.option("--wait", is_flag=True, help="Wait until the run is finished.")
@click.option("--timeout", default=300.0, show_default=True, help="Seconds --wait waits.")
@json_option
@pass_cli
def runs_create(
    cli: CliContext,
    processor_id: str,
    input_path: str,
    version_id: str | None,
    wait: bool,
    timeout: float,
    as_json: bool,
) -> None:
    """Run PROCESSOR_ID on INPUT_PATH (a file id, {base_url}/files/<id>, or an allowed
    file:// path)."""
    run = cli.client().call(ops.create_run(processor_id, input_path, version_id=version_id))
    if wait:
        run = wait_for_run(cli, processor_id, run, timeout)
    echo_record(run, as_json, (*_RUN_FIELDS, "output"))


@runs.command("show")
@click.argument("processor_id")
@click.argument("run_id")
@json_option
@pass_cli
def runs_show(cli: CliContext, processor_id: str, run_id: str, as_json: bool) -> None:
    """Show one run, with its output once it succeeded."""
    echo_record(
        cli.client().call(ops.get_run(processor_id, run_id)), as_json, (*_RUN_FIELDS, "output")
    )


@runs.command("list")
@click.argument("processor_id")
@click.option("--status", type=_STATES, help="Only runs in this state.")
@click.option("--version-id", help="Only runs of this version.")
@json_option
@pass_cli
def runs_list(
    cli: CliContext, processor_id: str, status: str | None, version_id: str | None, as_json: bool
) -> None:
    """List a processor's runs."""
    rows = list(
        cli.client().paginate(
            lambda cursor: ops.list_runs(
                processor_id, 1000, cursor, status=status, version_id=version_id
            )
        )
    )
    echo_rows(rows, as_json, ("id", "version_id", "status", "failure_reason", "finished_at"))


@runs.command("cancel")
@click.argument("processor_id")
@click.argument("run_id")
@json_option
@pass_cli
def runs_cancel(cli: CliContext, processor_id: str, run_id: str, as_json: bool) -> None:
    """Cancel a queued or in-progress run."""
    echo_record(cli.client().call(ops.cancel_run(processor_id, run_id)), as_json, _RUN_FIELDS)


@runs.command("delete")
@click.argument("processor_id")
@click.argument("run_id")
@pass_cli
def runs_delete(cli: CliContext, processor_id: str, run_id: str) -> None:
    """Delete a run and its outputs (an unfinished run is canceled first)."""
    cli.client().call(ops.delete_run(processor_id, run_id))
    click.echo(f"deleted {run_id}")
