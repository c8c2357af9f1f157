"""Cursor pagination shared by every list route: ``limit`` + opaque ``cursor`` over ``seq``."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Connection, Row, Table, select

from fieldwise.service.http.errors import ApiError

MAX_LIMIT = 1000


def _decode(cursor: str) -> int:
    if cursor.startswith("c_") and cursor[2:].isdigit():
        return int(cursor[2:])
    raise ApiError(422, "cursor: not a cursor returned by this list.", param="cursor")


def page(
    conn: Connection,
    table: Table,
    where: list[ColumnElement[bool]],
    *,
    limit: int,
    cursor: str | None,
) -> tuple[list[Row[Any]], str | None]:
    """One page of rows in insertion order, and the cursor of the next page (None at the end)."""
    if not 1 <= limit <= MAX_LIMIT:
        raise ApiError(422, f"limit: must be between 1 and {MAX_LIMIT}.", param="limit")
    query = select(table).where(*where)
    if cursor:
        query = query.where(table.c.seq > _decode(cursor))
    rows = list(conn.execute(query.order_by(table.c.seq).limit(limit + 1)))
    if len(rows) > limit:
        rows = rows[:limit]
        return rows, f"c_{rows[-1].seq}"
    return rows, None
