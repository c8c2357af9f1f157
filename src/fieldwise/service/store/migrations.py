"""Named schema migrations, applied once each and recorded in the ``migrations`` table.

A migration is a name and a function of a connection. Add new ones at the end of
``MIGRATIONS``; never rename or reorder applied ones.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import Column, Connection, Engine, MetaData, String, Table, insert, select

from fieldwise.service.ids import isoformat
from fieldwise.service.store import columns as tables

Migration = tuple[str, Callable[[Connection], None]]

_meta = MetaData()
migrations_table = Table(
    "migrations",
    _meta,
    Column("name", String(200), primary_key=True),
    Column("applied_at", String(32), nullable=False),
)


def _core(conn: Connection) -> None:
    tables.metadata.create_all(conn, tables=list(tables.CORE_TABLES))


def _events(conn: Connection) -> None:
    from fieldwise.service.events.outbox import create_events_table

    create_events_table(conn)


def _webhooks(conn: Connection) -> None:
    from fieldwise.service.events.webhooks.tables import create_webhook_tables

    create_webhook_tables(conn)


def _runs(conn: Connection) -> None:
    from fieldwise.service.resources.runs.tables import create_run_tables

    create_run_tables(conn)


def _evaluations(conn: Connection) -> None:
    from fieldwise.service.resources.evaluation_runs.tables import create_evaluation_tables

    create_evaluation_tables(conn)


# Append new migrations at the end (one line each); never rename or reorder applied ones.
MIGRATIONS: list[Migration] = [
    ("0001_core_resources", _core),
    ("0002_event_outbox", _events),
    ("0003_webhooks", _webhooks),
    ("0004_runs_and_jobs", _runs),
    ("0005_evaluation_runs", _evaluations),
]


def applied_migrations(engine: Engine) -> list[str]:
    with engine.connect() as conn:
        _meta.create_all(conn)
        conn.commit()
        return [row.name for row in conn.execute(select(migrations_table.c.name))]


def migrate(engine: Engine, migrations: list[Migration] | None = None) -> list[str]:
    """Apply every migration not yet recorded, each in its own transaction; return their names."""
    done = set(applied_migrations(engine))
    newly: list[str] = []
    for name, apply in migrations if migrations is not None else MIGRATIONS:
        if name in done:
            continue
        with engine.begin() as conn:
            apply(conn)
            conn.execute(
                insert(migrations_table).values(name=name, applied_at=isoformat(datetime.now(UTC)))
            )
        newly.append(name)
    return newly
