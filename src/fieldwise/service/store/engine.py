"""Engine construction: SQLite (default, WAL) or any SQLAlchemy URL such as PostgreSQL."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, create_engine, event

from fieldwise.service.store.json_reader import safe_json_loads
from fieldwise.service.store.prepared import engine_options

if TYPE_CHECKING:
    from fieldwise._config import ServiceSettings

#: The SQLite database in the data folder when no database URL is configured; only the
#: service knows it (the toolkit asks the service over HTTP, never reads this file).
SQLITE_FILE = "fieldwise.db"


def database_url(settings: ServiceSettings) -> str:
    """The configured database URL, else SQLite in the settings' data folder."""
    if settings.database_url:
        return settings.database_url
    return f"sqlite:///{(settings.data_dir / SQLITE_FILE).resolve()}"


def make_engine(url: str, *, idle_in_transaction: float | None = None) -> Engine:
    """An engine tuned for the service: WAL and a busy timeout on SQLite, pre-ping elsewhere.

    ``idle_in_transaction`` (seconds, PostgreSQL): the server ends a session that sits in an
    open transaction longer, so a process frozen mid-transaction (SIGSTOP, a stuck VM) cannot
    hold row locks that would stop the others from recovering its jobs.
    JSON columns are read with :func:`~fieldwise.service.store.json_reader.safe_json_loads`, so no
    stored value (a lone surrogate stored before the edge refused them) can fail a read.
    """
    if url.startswith("sqlite"):
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            json_deserializer=safe_json_loads,
            execution_options=engine_options(),
        )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            # Isolation is managed by SQLAlchemy's BEGIN; WAL lets readers run beside a writer.
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    connect_args: dict[str, Any] = {}
    if idle_in_transaction and url.startswith("postgresql"):
        millis = max(1000, int(idle_in_transaction * 1000))
        connect_args["options"] = f"-c idle_in_transaction_session_timeout={millis}"
    return create_engine(
        url,
        pool_pre_ping=True,
        pool_size=10,
        max_overflow=20,
        connect_args=connect_args,
        json_deserializer=safe_json_loads,
        execution_options=engine_options(),
    )
