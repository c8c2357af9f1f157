"""Evaluation runs: creation and every state move, each one conditional and transactional.

``queued`` → ``in_progress`` → ``succeeded`` | ``failed`` | ``canceled`` (and ``queued`` →
``canceled``). A move is an ``UPDATE … WHERE status IN (…)``, so a cancel racing the worker's
finish yields one terminal state. Finishing as succeeded or failed records
``evaluation.completed`` in the same transaction.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, Row, select

from fieldwise.service.clock import Clock
from fieldwise.service.events.outbox import record_event
from fieldwise.service.jobs import Job
from fieldwise.service.jobs.durable import DurableRuns
from fieldwise.service.resources.evaluation_runs.tables import evaluation_run_items, evaluation_runs
from fieldwise.service.resources.runs.lifecycle import finish_run
from fieldwise.service.resources.runs.tables import processor_runs

JOB_KIND = "evaluation_run"
EVALUATIONS = DurableRuns(JOB_KIND, evaluation_runs, "evrun")

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


def get_evaluation_run(conn: Connection, run_id: str) -> Row[Any] | None:
    return EVALUATIONS.get(conn, run_id)


def status_of(engine: Engine, run_id: str) -> str | None:
    return EVALUATIONS.status_of(engine, run_id)


def finish_evaluation(
    conn: Connection,
    clock: Clock,
    run_id: str,
    status: str,
    *,
    job: Job | None = None,
    from_states: tuple[str, ...] = ("in_progress",),
    metrics: dict[str, Any] | None = None,
    reason: str | None = None,
    message: str | None = None,
) -> bool:
    """Move an evaluation to a terminal ``status`` if it is in ``from_states`` (and, with
    ``job``, while the worker still holds its lease); False if not.

    In the same transaction its job is finished and, for succeeded or failed, the
    ``evaluation.completed`` event is recorded.
    """
    values = {"metrics": metrics, "failure_reason": reason, "failure_message": message}
    row = EVALUATIONS.finish(
        conn, clock, run_id, status, job=job, from_states=from_states, values=values
    )
    if row is None:
        return False
    if status in ("succeeded", "failed"):
        record_event(conn, clock, "evaluation.completed", event_data(row))
    return True


def cancel_evaluation(conn: Connection, clock: Clock, run_id: str) -> bool:
    """``queued`` / ``in_progress`` → ``canceled``, with its unfinished processor runs; False
    when the evaluation had already finished."""
    if not finish_evaluation(
        conn, clock, run_id, "canceled", from_states=("queued", "in_progress")
    ):
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
        finish_run(conn, clock, processor_run_id, "canceled", from_states=("queued", "in_progress"))
    return True


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
