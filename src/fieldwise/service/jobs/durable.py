"""State moves shared by every job-backed resource (processor runs, evaluation runs).

Each move is a conditional UPDATE on the resource's ``status``: of two racing callers (a
worker starting a run, a user canceling it) exactly one sees its row change.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, Row, Table, select, update

from fieldwise.service.clock import Clock
from fieldwise.service.ids import isoformat
from fieldwise.service.jobs.queue import finish_jobs

#: Every durable run's states; the last three are terminal.
RUN_STATES = ("queued", "in_progress", "succeeded", "failed", "canceled")
TERMINAL = ("succeeded", "failed", "canceled")


def get_row(conn: Connection, table: Table, row_id: str) -> Row[Any] | None:
    return conn.execute(select(table).where(table.c.id == row_id)).first()


def status_of(engine: Engine, table: Table, row_id: str) -> str | None:
    """The current status, read in its own connection (workers check it between stages)."""
    with engine.connect() as conn:
        value = conn.execute(select(table.c.status).where(table.c.id == row_id)).scalar()
    return None if value is None else str(value)


def start_queued(
    conn: Connection, clock: Clock, table: Table, row_id: str, attempt: int
) -> Row[Any] | None:
    """``queued`` → ``in_progress``; None, with its jobs finished, when it is no longer queued."""
    stamp = isoformat(clock.now())
    won = conn.execute(
        update(table)
        .where(table.c.id == row_id, table.c.status == "queued")
        .values(status="in_progress", started_at=stamp, attempts=attempt, updated_at=stamp)
    ).rowcount
    if not won:
        finish_jobs(conn, clock, row_id)
        return None
    return get_row(conn, table, row_id)


def requeue(conn: Connection, clock: Clock, table: Table, row_id: str) -> bool:
    """An interrupted ``queued``/``in_progress`` row goes back to ``queued`` (recovery)."""
    changed = conn.execute(
        update(table)
        .where(table.c.id == row_id, table.c.status.in_(("queued", "in_progress")))
        .values(status="queued", started_at=None, updated_at=isoformat(clock.now()))
    ).rowcount
    return bool(changed)
