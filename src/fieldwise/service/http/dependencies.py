"""Small helpers the routers share."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query
from sqlalchemy import Connection, Row, Table, select

from fieldwise.service.http.errors import not_found
from fieldwise.service.store.locks import lock_row
from fieldwise.service.store.prepared import by_id

Limit = Annotated[int, Query(ge=1, le=1000, description="Page size (1-1000).")]
Cursor = Annotated[str | None, Query(description="`next_cursor` of the previous page.")]


def fetch(
    conn: Connection, table: Table, ident: str, kind: str, *, for_update: bool = False, **scope: Any
) -> Row[Any]:
    """The row with ``id`` (and the given scoping columns), or a 404 ApiError.

    ``for_update``: lock it until the transaction ends, for a read-modify-write (a merge)."""
    if not scope and not for_update:  # the common case, a statement built once
        row = conn.execute(by_id(conn, table), {"p_id": ident}).first()
        if row is None:
            raise not_found(kind, ident)
        return row
    where = [table.c.id == ident, *(table.c[column] == value for column, value in scope.items())]
    if for_update:
        row = lock_row(conn, table, *where)
    else:
        row = conn.execute(select(table).where(*where)).first()
    if row is None:
        raise not_found(kind, ident)
    return row


def common_fields(row: Row[Any]) -> dict[str, Any]:
    return {"id": row.id, "created_at": row.created_at, "updated_at": row.updated_at}
