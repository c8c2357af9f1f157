"""The event outbox: what happened, recorded in the same transaction as the change itself.

Producers (runs, workflows, parse runs, evaluations) call :func:`record_event` inside their
transaction; the webhook dispatcher reads undispatched events and turns them into deliveries.
Because the event is written with the change, a crash can neither lose it nor invent it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Column, Connection, String, Table, bindparam, insert, select

from fieldwise.service.clock import Clock
from fieldwise.service.ids import isoformat, new_id
from fieldwise.service.store.columns import metadata, seq_column
from fieldwise.service.store.prepared import prepared

#: Every event type the service emits; endpoints subscribe to a subset.
EVENT_TYPES = (
    "evaluation.completed",
    "parse.run.completed",
    "parse.run.failed",
    "processor.run.completed",
    "processor.run.failed",
    "processor.version.published",
    "training.run.completed",
    "training.run.failed",
    "workflow.run.completed",
    "workflow.run.failed",
)

events = Table(
    "events",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    Column("type", String(64), nullable=False),
    Column("data", JSON, nullable=False),
    Column("created_at", String(32), nullable=False),
    # Set for notifications addressed to one URL (parse webhook_url) instead of subscribers.
    Column("target_url", String(2048), nullable=True),
    Column("dispatched_at", String(32), nullable=True, index=True),
)


def record_event(
    conn: Connection,
    clock: Clock,
    type: str,
    data: dict[str, Any],
    *,
    target_url: str | None = None,
) -> str:
    """Append an event (``evt_…``) to the outbox in the caller's transaction; return its id.

    With ``target_url`` the event goes to that URL only (signed with the workspace secret),
    not to the endpoints subscribed to its type.
    """
    if type not in EVENT_TYPES:
        raise ValueError(f"unknown event type {type!r}")
    event_id = new_id("evt")
    params = {
        "id": event_id,
        "type": type,
        "data": data,
        "created_at": isoformat(clock.now()),
        "target_url": target_url,
        "dispatched_at": None,
    }
    statement = prepared(
        conn,
        "events.insert",
        lambda: insert(events).values(**{name: bindparam(f"p_{name}") for name in params}),
    )
    conn.execute(statement, {f"p_{name}": value for name, value in params.items()})
    return event_id


def envelope(row: Any) -> dict[str, Any]:
    """The payload shape of the spec: id, type, created_at, data."""
    return {"id": row.id, "type": row.type, "created_at": row.created_at, "data": row.data}


def pending_events(conn: Connection, limit: int = 100) -> list[Any]:
    query = (
        select(events).where(events.c.dispatched_at.is_(None)).order_by(events.c.seq).limit(limit)
    )
    return list(conn.execute(query))
