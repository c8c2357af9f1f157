"""``fieldwise workflows``: workflows, their runs and batch runs."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import click

from fieldwise._errors import ConfigError
from fieldwise.cli._context import CliContext, json_option, pass_cli
from fieldwise.cli._output import echo_record, echo_rows
from fieldwise.client import ops

_WORKFLOW_FIELDS = ("id", "name", "order", "nodes", "edges", "created_at")
_RUN_FIELDS = (
    "id",
    "workflow_id",
    "status",
    "input_file_id",
    "batch_id",
    "labels",
    "notes",
    "metadata",
    "failure_reason",
    "failure_message",
    "started_at",
    "finished_at",
    "nodes",
)
_TERMINAL = ("succeeded", "failed", "canceled")


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}:{exc.lineno}: invalid JSON ({exc.msg})") from None


def _metadata(raw: str | None) -> dict[str, Any]:
    if raw is None:
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = None
    if not isinstance(value, dict):
        raise ConfigError("--metadata must be a JSON object")
    return value


@click.group()
def workflows() -> None:
    """Create workflows, run them on files or batches, label and delete their runs."""


@workflows.command("create")
@click.argument("name")
@click.option(
    "--graph",
    "graph_path",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help='JSON file: {"nodes": [{"id", "type", "processor_id"}...], "edges": [{"from", "to"}]}.',
)
@json_option
@pass_cli
def workflows_create(cli: CliContext, name: str, graph_path: Path, as_json: bool) -> None:
    """Create a workflow called NAME from a graph file."""
    graph = _read_json(graph_path)
    if not isinstance(graph, dict) or not isinstance(graph.get("nodes"), list):
        raise ConfigError(f"{graph_path}: expected an object with a 'nodes' list")
    op = ops.create_workflow(name, graph["nodes"], edges=graph.get("edges"))
    echo_record(cli.client().call(op), as_json, _WORKFLOW_FIELDS)


@workflows.command("list")
@json_option
@pass_cli
def workflows_list(cli: CliContext, as_json: bool) -> None:
    """List workflows."""
    rows = list(cli.client().paginate(lambda cursor: ops.list_workflows(1000, cursor)))
    echo_rows(rows, as_json, ("id", "name", "order"))


@workflows.command("show")
@click.argument("workflow_id")
@json_option
@pass_cli
def workflows_show(cli: CliContext, workflow_id: str, as_json: bool) -> None:
    """Show one workflow."""
    echo_record(cli.client().call(ops.get_workflow(workflow_id)), as_json, _WORKFLOW_FIELDS)


@workflows.command("run")
@click.argument("workflow_id")
@click.argument("file_id")
@click.option("--metadata", help="A JSON object stored with the run.")
@click.option("--wait", is_flag=True, help="Wait until the run is finished.")
@click.option("--timeout", default=300.0, show_default=True, help="Seconds --wait waits.")
@json_option
@pass_cli
def workflows_run(
    cli: CliContext,
    workflow_id: str,
    file_id: str,
    metadata: str | None,
    wait: bool,
    timeout: float,
    as_json: bool,
) -> None:
    """Run WORKFLOW_ID on an uploaded file."""
    client = cli.client()
    run = client.call(ops.create_workflow_run(workflow_id, file_id, metadata=_metadata(metadata)))
    deadline = time.monotonic() + timeout
    while wait and run.status not in _TERMINAL and time.monotonic() < deadline:
        time.sleep(0.2)
        run = client.call(ops.get_workflow_run(workflow_id, run.id))
    echo_record(run, as_json, _RUN_FIELDS)


@workflows.command("runs")
@click.argument("workflow_id")
@click.option("--status", help="Only runs in this state.")
@click.option("--batch-id", help="Only runs of this batch.")
@json_option
@pass_cli
def workflows_runs(
    cli: CliContext, workflow_id: str, status: str | None, batch_id: str | None, as_json: bool
) -> None:
    """List a workflow's runs."""
    rows = list(
        cli.client().paginate(
            lambda cursor: ops.list_workflow_runs(
                workflow_id, 1000, cursor, status=status, batch_id=batch_id
            )
        )
    )
    echo_rows(rows, as_json, ("id", "status", "input_file_id", "batch_id", "failure_reason"))


@workflows.command("run-show")
@click.argument("workflow_id")
@click.argument("run_id")
@json_option
@pass_cli
def workflows_run_show(cli: CliContext, workflow_id: str, run_id: str, as_json: bool) -> None:
    """Show one workflow run with its node runs."""
    run = cli.client().call(ops.get_workflow_run(workflow_id, run_id))
    echo_record(run, as_json, _RUN_FIELDS)


@workflows.command("label")
@click.argument("workflow_id")
@click.argument("run_id")
@click.option("--label", "labels", multiple=True, help="A label (repeatable); replaces labels.")
@click.option("--notes", help="Free-text notes.")
@click.option("--metadata", help="A JSON object merged into the run's metadata.")
@json_option
@pass_cli
def workflows_label(
    cli: CliContext,
    workflow_id: str,
    run_id: str,
    labels: tuple[str, ...],
    notes: str | None,
    metadata: str | None,
    as_json: bool,
) -> None:
    """Set labels, notes or metadata of a workflow run."""
    op = ops.update_workflow_run(
        workflow_id,
        run_id,
        labels=list(labels) if labels else None,
        notes=notes,
        metadata=_metadata(metadata) if metadata is not None else None,
    )
    echo_record(cli.client().call(op), as_json, _RUN_FIELDS)


@workflows.command("delete-run")
@click.argument("workflow_id")
@click.argument("run_id")
@pass_cli
def workflows_delete_run(cli: CliContext, workflow_id: str, run_id: str) -> None:
    """Delete a workflow run with its node runs and outputs."""
    cli.client().call(ops.delete_workflow_run(workflow_id, run_id))
    click.echo(f"deleted {run_id}")


@workflows.command("batch")
@click.argument("workflow_id")
@click.argument("file_ids", nargs=-1, required=True)
@click.option("--sync", "sync", is_flag=True, help="Wait for all runs (async: false).")
@json_option
@pass_cli
def workflows_batch(
    cli: CliContext, workflow_id: str, file_ids: tuple[str, ...], sync: bool, as_json: bool
) -> None:
    """Run WORKFLOW_ID on many files (at most 100) as one batch."""
    batch = cli.client().call(ops.create_batch_run(workflow_id, list(file_ids), run_async=not sync))
    echo_record(batch, as_json, ("id", "workflow_id", "done", "counts", "run_ids"))


@workflows.command("batch-show")
@click.argument("workflow_id")
@click.argument("batch_id")
@json_option
@pass_cli
def workflows_batch_show(cli: CliContext, workflow_id: str, batch_id: str, as_json: bool) -> None:
    """Show a batch with counts of its runs by status."""
    batch = cli.client().call(ops.get_batch_run(workflow_id, batch_id))
    echo_record(batch, as_json, ("id", "workflow_id", "done", "counts", "run_ids"))
