"""Evaluation runs: creation and every state move, each one conditional and transactional.

``queued`` → ``in_progress`` → ``succeeded`` | ``failed`` | ``canceled`` (and ``queued`` →
``canceled``). A move is an ``UPDATE … WHERE status IN (…)``, so a cancel racing the worker's
finish yields one terminal state. Finishing as succeeded or failed records
``evaluation.completed`` in the same transaction.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, Row, insert, select, update

from fieldwise.service.clock import Clock
from fieldwise.service.events.outbox import record_event
from fieldwise.service.ids import isoformat, new_id
from fieldwise.service.jobs import enqueue, finish_jobs, states
from fieldwise.service.resources.evaluation_runs.tables import evaluation_run_items, evaluation_runs
from fieldwise.service.resources.runs.lifecycle import finish_run
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
    run_id = new_id("evrun")
    stamp = isoformat(clock.now())
    conn.execute(
        insert(evaluation_runs).values(
            id=run_id,
            eval_set_id=eval_set_id,
            processor_id=processor_id,
            version_id=version_id,
            status="queued",
            attempts=0,
            metrics=None,
            base_url=base_url,
            queued_at=stamp,
            created_at=stamp,
            updated_at=stamp,
        )
    )
    enqueue(conn, clock, JOB_KIND, run_id)
    return run_id


def get_evaluation_run(conn: Connection, run_id: str) -> Row[Any] | None:
    return states.get_row(conn, evaluation_runs, run_id)


def status_of(engine: Engine, run_id: str) -> str | None:
    return states.status_of(engine, evaluation_runs, run_id)


def start_evaluation(engine: Engine, clock: Clock, run_id: str, attempt: int) -> Row[Any] | None:
    """``queued`` → ``in_progress``; None (and the job finished) when it is no longer queued."""
    with engine.begin() as conn:
        return states.start_queued(conn, clock, evaluation_runs, run_id, attempt)


def requeue_evaluation(conn: Connection, clock: Clock, run_id: str) -> bool:
    """An interrupted evaluation goes back to ``queued``; it keeps its processor runs."""
    return states.requeue(conn, clock, evaluation_runs, run_id)


def finish_evaluation(
    conn: Connection,
    clock: Clock,
    run_id: str,
    status: str,
    *,
    from_states: tuple[str, ...] = ("in_progress",),
    metrics: dict[str, Any] | None = None,
    reason: str | None = None,
    message: str | None = None,
) -> bool:
    """Move an evaluation to a terminal ``status`` if it is in ``from_states``; False if not.

    In the same transaction its job is finished and, for succeeded or failed, the
    ``evaluation.completed`` event is recorded.
    """
    stamp = isoformat(clock.now())
    changed = conn.execute(
        update(evaluation_runs)
        .where(evaluation_runs.c.id == run_id, evaluation_runs.c.status.in_(from_states))
        .values(
            status=status,
            metrics=metrics,
            failure_reason=reason,
            failure_message=message,
            finished_at=stamp,
            updated_at=stamp,
        )
    ).rowcount
    if not changed:
        return False
    finish_jobs(conn, clock, run_id)
    row = get_evaluation_run(conn, run_id)
    assert row is not None
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
