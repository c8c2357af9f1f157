"""``fieldwise evaluation-runs``: server-side evaluation runs (create, show, list, results,
cancel)."""

from __future__ import annotations

import time
from typing import Any

import click

from fieldwise.cli._context import CliContext, json_option, pass_cli
from fieldwise.cli._output import echo_json, echo_record, echo_rows, echo_table
from fieldwise.client import EvaluationRun, ops

_FIELDS = (
    "id",
    "eval_set_id",
    "processor_id",
    "version_id",
    "status",
    "failure_reason",
    "failure_message",
    "attempts",
    "queued_at",
    "started_at",
    "finished_at",
)
_HEADLINE = ("accuracy", "precision", "recall", "f1", "all_fields_correct_rate")
_FIELD_COLUMNS = ("support", "correct", "wrong", "missed", "spurious", "accuracy", "precision")
_TERMINAL = ("succeeded", "failed", "canceled")
_STATES = click.Choice(["queued", "in_progress", "succeeded", "failed", "canceled"])
_OUTCOMES = click.Choice(["correct", "wrong", "missed", "spurious", "both_empty"])


def _wait(cli: CliContext, run: EvaluationRun, timeout: float) -> EvaluationRun:
    deadline = time.monotonic() + timeout
    while run.status not in _TERMINAL and time.monotonic() < deadline:
        time.sleep(0.2)
        run = cli.client().call(ops.get_evaluation_run(run.eval_set_id, run.id))
    return run


def _figure(value: Any) -> str:
    return f"{value:.4f}" if isinstance(value, float) else "" if value is None else str(value)


def _echo_run(run: EvaluationRun, as_json: bool) -> None:
    """The run's fields, then its headline metrics and one line per field."""
    if as_json:
        echo_json(run)
        return
    echo_record(run, False, _FIELDS)
    metrics = run.metrics or {}
    if not metrics:
        return
    click.echo("")
    for name in _HEADLINE:
        if name in metrics:
            click.echo(f"{name.ljust(24)}  {_figure(metrics[name])}")
    runs = metrics.get("runs") or {}
    click.echo(f"{'items'.ljust(24)}  {metrics.get('items')} ({runs.get('failed', 0)} failed runs)")
    fields: dict[str, dict[str, Any]] = metrics.get("fields") or {}
    if fields:
        width = max(len("field"), *(len(f) for f in fields))
        click.echo("")
        click.echo("  ".join(["field".ljust(width), *(c.rjust(9) for c in _FIELD_COLUMNS)]))
        for name in sorted(fields):
            cells = [_figure(fields[name].get(c)).rjust(9) for c in _FIELD_COLUMNS]
            click.echo("  ".join([name.ljust(width), *cells]))


@click.group("evaluation-runs")
def evaluation_runs() -> None:
    """Score a processor version on an evaluation set inside the service."""


@evaluation_runs.command("create")
@click.argument("eval_set_id")
@click.argument("processor_id")
@click.option("--version-id", help="Version to evaluate [default: the published one].")
@click.option("--wait", is_flag=True, help="Wait until the evaluation is finished.")
@click.option("--timeout", default=600.0, show_default=True, help="Seconds --wait waits.")
@json_option
@pass_cli
def create_cmd(
    cli: CliContext,
    eval_set_id: str,
    processor_id: str,
    version_id: str | None,
    wait: bool,
    timeout: float,
    as_json: bool,
) -> None:
    """Evaluate PROCESSOR_ID's version on every item of EVAL_SET_ID."""
    run = cli.client().call(
        ops.create_evaluation_run(eval_set_id, processor_id, version_id=version_id)
    )
    if wait:
        run = _wait(cli, run, timeout)
    _echo_run(run, as_json)


@evaluation_runs.command("show")
@click.argument("eval_set_id")
@click.argument("run_id")
@json_option
@pass_cli
def show_cmd(cli: CliContext, eval_set_id: str, run_id: str, as_json: bool) -> None:
    """Show one evaluation run with its metrics."""
    _echo_run(cli.client().call(ops.get_evaluation_run(eval_set_id, run_id)), as_json)


@evaluation_runs.command("list")
@click.argument("eval_set_id")
@click.option("--status", type=_STATES, help="Only evaluation runs in this state.")
@click.option("--processor-id", help="Only evaluation runs of this processor.")
@json_option
@pass_cli
def list_cmd(
    cli: CliContext, eval_set_id: str, status: str | None, processor_id: str | None, as_json: bool
) -> None:
    """List the evaluation runs of a set."""
    rows = list(
        cli.client().paginate(
            lambda cursor: ops.list_evaluation_runs(
                eval_set_id, 1000, cursor, status=status, processor_id=processor_id
            )
        )
    )
    echo_rows(rows, as_json, ("id", "processor_id", "version_id", "status", "finished_at"))


@evaluation_runs.command("results")
@click.argument("eval_set_id")
@click.argument("run_id")
@click.option("--item-id", help="Only cells of this item.")
@click.option("--field", help="Only cells of this field.")
@click.option("--outcome", type=_OUTCOMES, help="Only cells with this outcome.")
@json_option
@pass_cli
def results_cmd(
    cli: CliContext,
    eval_set_id: str,
    run_id: str,
    item_id: str | None,
    field: str | None,
    outcome: str | None,
    as_json: bool,
) -> None:
    """Per item and field: expected, predicted, outcome and confidence."""
    rows = list(
        cli.client().paginate(
            lambda cursor: ops.list_evaluation_results(
                eval_set_id, run_id, 1000, cursor, item_id=item_id, field=field, outcome=outcome
            )
        )
    )
    if as_json:
        echo_json(rows)
    else:
        columns = ("item_id", "field", "row", "expected", "predicted", "outcome", "confidence")
        echo_table(rows, columns)


@evaluation_runs.command("cancel")
@click.argument("eval_set_id")
@click.argument("run_id")
@json_option
@pass_cli
def cancel_cmd(cli: CliContext, eval_set_id: str, run_id: str, as_json: bool) -> None:
    """Cancel a queued or in-progress evaluation run (and its unfinished processor runs)."""
    _echo_run(cli.client().call(ops.cancel_evaluation_run(eval_set_id, run_id)), as_json)
