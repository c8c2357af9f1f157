"""Evaluation runs: creation and every state move, each one conditional and transactional.

``queued`` → ``in_progress`` → ``succeeded`` | ``failed`` | ``canceled`` (and ``queued`` →
``canceled``), as every durable run (:class:`~fieldwise.service.jobs.durable.DurableRuns`):
a cancel racing the worker's finish yields one terminal state. Ending succeeded or failed
records ``evaluation.completed`` in the same transaction.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Row, select

from fieldwise.service.clock import Clock
from fieldwise.service.events.outbox import record_event
from fieldwise.service.jobs.durable import DurableRuns
from fieldwise.service.resources.evaluation_runs.tables import evaluation_run_items, evaluation_runs
from fieldwise.service.resources.runs.lifecycle import RUNS
from fieldwise.service.resources.runs.tables import processor_runs

JOB_KIND = "evaluation_run"

#: Headline figures copied from the metrics into the event.
_EVENT_FIGURES = ("accuracy", "precision", "recall", "f1", "all_fields_correct_rate")


def create_evaluation_run(
    conn: Connection,
    clock: Clock,
    *,
    eval_set_id: str,
    processor_id: str,
    version_id: str,
    base_url: str,
) -> str:
    """Insert a queued evaluation run and its job in the caller's transaction; return its id."""
    run_id, _job = EVALUATIONS.create(
        conn,
        clock,
        {
            "eval_set_id": eval_set_id,
            "processor_id": processor_id,
            "version_id": version_id,
            "metrics": None,
            "base_url": base_url,
        },
    )
    return run_id


def cancel_evaluation(conn: Connection, clock: Clock, run_id: str) -> bool:
    """``queued`` / ``in_progress`` → ``canceled``, with its unfinished processor runs; False
    when the evaluation had already finished."""
    if EVALUATIONS.cancel(conn, clock, run_id) is None:
        return False
    unfinished = conn.execute(
        select(processor_runs.c.id)
        .join(
            evaluation_run_items,
            evaluation_run_items.c.processor_run_id == processor_runs.c.id,
        )
        .where(
            evaluation_run_items.c.evaluation_run_id == run_id,
            processor_runs.c.status.in_(("queued", "in_progress")),
        )
    ).scalars()
    for processor_run_id in list(unfinished):
        RUNS.cancel(conn, clock, processor_run_id)
    return True


def _ended(conn: Connection, clock: Clock, row: Row[Any]) -> None:
    if row.status in ("succeeded", "failed"):
        record_event(conn, clock, "evaluation.completed", event_data(row))


def event_data(row: Any) -> dict[str, Any]:
    """The ``evaluation.completed`` payload of a finished evaluation run."""
    metrics: dict[str, Any] = row.metrics or {}
    data: dict[str, Any] = {
        "eval_set_id": row.eval_set_id,
        "evaluation_run_id": row.id,
        "processor_id": row.processor_id,
        "version_id": row.version_id,
        "status": row.status,
        **{k: metrics.get(k) for k in _EVENT_FIGURES},
        "items": metrics.get("items"),
        "runs_failed": (metrics.get("runs") or {}).get("failed"),
    }
    if row.status == "failed":
        data.update(failure_reason=row.failure_reason, failure_message=row.failure_message)
    return data


EVALUATIONS = DurableRuns(JOB_KIND, evaluation_runs, "evrun", ended=_ended)
