"""Training runs: creation and every state move, each one conditional and transactional.

``queued`` → ``in_progress`` → ``succeeded`` | ``failed`` | ``canceled`` (and ``queued`` →
``canceled``), as every durable run (:class:`~fieldwise.service.jobs.durable.DurableRuns`). A
succeeding run creates its drafted version in the same transaction as the move, so a cancel
that wins the race leaves no version. Succeeded and failed record ``training.run.completed``
/ ``training.run.failed`` in that transaction too.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, Row, update

from fieldwise.service.clock import Clock
from fieldwise.service.events.outbox import record_event
from fieldwise.service.ids import isoformat
from fieldwise.service.jobs import Job
from fieldwise.service.jobs.durable import ACTIVE, DurableRuns
from fieldwise.service.resources.training_runs.tables import training_runs

JOB_KIND = "training_run"
TRAININGS = DurableRuns(JOB_KIND, training_runs, "train")
_EVENTS = {"succeeded": "training.run.completed", "failed": "training.run.failed"}


def create_training_run(conn: Connection, clock: Clock, values: dict[str, Any]) -> str:
    """Insert a queued training run and its job in the caller's transaction; return its id."""
    run_id, _job = TRAININGS.create(
        conn,
        clock,
        {
            **values,
            "progress_done": 0,
            "progress_total": len(values["item_ids"]),
            "stage": "queued",
            "model_sha256": None,
            "model_size": None,
            "version_id": None,
        },
    )
    return run_id


def get_training_run(conn: Connection, run_id: str) -> Row[Any] | None:
    return TRAININGS.get(conn, run_id)


def status_of(engine: Engine, run_id: str) -> str | None:
    return TRAININGS.status_of(engine, run_id)


def set_progress(
    engine: Engine, clock: Clock, run_id: str, stage: str, done: int, total: int
) -> None:
    """Record how far an in-progress run is (the CLI draws its bar from it)."""
    with engine.begin() as conn:
        conn.execute(
            update(training_runs)
            .where(training_runs.c.id == run_id, training_runs.c.status == "in_progress")
            .values(
                stage=stage,
                progress_done=done,
                progress_total=total,
                updated_at=isoformat(clock.now()),
            )
        )


def finish_training(
    conn: Connection,
    clock: Clock,
    run_id: str,
    status: str,
    *,
    job: Job | None = None,
    from_states: tuple[str, ...] = ("in_progress",),
    values: dict[str, Any] | None = None,
    reason: str | None = None,
    message: str | None = None,
) -> Row[Any] | None:
    """Move a training run to a terminal ``status`` if it is in ``from_states`` (and, with
    ``job``, while the worker still holds its lease); None if not. Records its event."""
    failure = {"failure_reason": reason, "failure_message": message} if reason else {}
    row = TRAININGS.finish(
        conn,
        clock,
        run_id,
        status,
        job=job,
        from_states=from_states,
        values={**(values or {}), **failure},
    )
    if row is not None and status in _EVENTS:
        record_event(conn, clock, _EVENTS[status], event_data(row))
    return row


def cancel_training(conn: Connection, clock: Clock, run_id: str) -> Row[Any] | None:
    """A user's cancel: ``queued`` / ``in_progress`` → ``canceled``; None if already ended."""
    return finish_training(conn, clock, run_id, "canceled", from_states=ACTIVE)


def event_data(row: Any) -> dict[str, Any]:
    """The payload of ``training.run.completed`` / ``training.run.failed``."""
    data: dict[str, Any] = {
        "training_run_id": row.id,
        "processor_id": row.processor_id,
        "eval_set_id": row.eval_set_id,
        "split": row.split,
        "items": len(row.item_ids or ()),
        "status": row.status,
        "version_id": row.version_id,
        "model_sha256": row.model_sha256,
    }
    if row.status == "failed":
        data.update(failure_reason=row.failure_reason, failure_message=row.failure_message)
    return data
