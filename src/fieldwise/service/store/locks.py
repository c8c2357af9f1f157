"""Row locks for read-modify-write transactions, on SQLite and on PostgreSQL alike.

A merge (read a JSON column, change it, write it back), a "max + 1" number, or a "does the
parent still exist" check is only correct if nobody else writes in between. PostgreSQL locks
the selected rows (``SELECT … FOR UPDATE``) until the transaction ends. SQLite has one writer
at a time: the transaction takes the database's write lock before it reads
(``BEGIN IMMEDIATE``, waiting out the busy timeout), so what it reads stays true until commit.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Connection, Row, Table, select, text


def hold_write_lock(conn: Connection) -> None:
    """On SQLite, make the open transaction a write transaction now (a no-op when it already
    is one, and on servers with row locks)."""
    if conn.dialect.name != "sqlite":
        return
    raw: Any = conn.connection.dbapi_connection
    # The driver opens a transaction only before a write, and that write took the lock.
    if not raw.in_transaction:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def lock_blob(conn: Connection, sha256: str) -> None:
    """Hold the blob ``sha256`` until the transaction ends: adding a reference to it (and
    placing its bytes) and unlinking it once unreferenced must not interleave.

    PostgreSQL: a transaction-scoped advisory lock keyed by the hash's first 60 bits (two
    blobs sharing a key merely wait for each other). SQLite: the write lock."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": int(sha256[:15], 16)})
    else:
        hold_write_lock(conn)


def lock_rows(conn: Connection, table: Table, *where: ColumnElement[bool]) -> list[Row[Any]]:
    """The rows of ``table`` matching ``where``, locked against other writers until the
    transaction ends (a missing row stays missing for as long, on SQLite)."""
    hold_write_lock(conn)
    query = select(table).where(*where).order_by(table.c.seq)
    if conn.dialect.name != "sqlite":
        query = query.with_for_update()
    return list(conn.execute(query))


def lock_row(conn: Connection, table: Table, *where: ColumnElement[bool]) -> Row[Any] | None:
    """The one row of ``table`` matching ``where``, locked like :func:`lock_rows`, or None."""
    rows = lock_rows(conn, table, *where)
    return rows[0] if rows else None
