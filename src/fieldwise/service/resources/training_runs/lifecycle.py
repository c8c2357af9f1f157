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
from fieldwise.service.jobs.durable import DurableRuns
from fieldwise.service.resources.training_runs.tables import training_runs

JOB_KIND = "training_run"
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


def _ended(conn: Connection, clock: Clock, row: Row[Any]) -> None:
    if row.status in _EVENTS:
        record_event(conn, clock, _EVENTS[row.status], event_data(row))


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


TRAININGS = DurableRuns(JOB_KIND, training_runs, "train", ended=_ended)
