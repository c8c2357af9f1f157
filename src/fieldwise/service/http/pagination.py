"""Cursor pagination shared by every list route: ``limit`` + opaque ``cursor`` over ``seq``."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Connection, Row, Table, select

from fieldwise.service.http.errors import ApiError

MAX_LIMIT = 1000
#: The largest ``seq`` a cursor can name: a signed 64-bit integer, what SQLite and PostgreSQL
#: store. A larger number would overflow the database driver (a 500), so it is no cursor.
_MAX_SEQ = 2**63 - 1


def _decode(cursor: str) -> int:
    digits = cursor.removeprefix("c_") if cursor.startswith("c_") else ""
    # ASCII digits only ("²".isdigit() is true, int() refuses it), and few enough to compare
    # without converting a huge string (int() refuses over 4300 digits).
    if digits.isascii() and digits.isdigit() and len(digits) <= 19 and int(digits) <= _MAX_SEQ:
        return int(digits)
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
