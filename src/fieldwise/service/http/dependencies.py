"""Small helpers the routers share."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Query
from sqlalchemy import Connection, Row, Table, select

from fieldwise.service.http.errors import not_found
from fieldwise.service.ids import isoformat
from fieldwise.service.state import ServiceState, get_state

State = Annotated[ServiceState, Depends(get_state)]
Limit = Annotated[int, Query(ge=1, le=1000, description="Page size (1-1000).")]
Cursor = Annotated[str | None, Query(description="`next_cursor` of the previous page.")]


def now(state: ServiceState) -> str:
    return isoformat(state.clock.now())


def fetch(conn: Connection, table: Table, ident: str, kind: str, **scope: Any) -> Row[Any]:
    """The row with ``id`` (and the given scoping columns), or a 404 ApiError."""
    query = select(table).where(table.c.id == ident)
    for column, value in scope.items():
        query = query.where(table.c[column] == value)
    row = conn.execute(query).first()
    if row is None:
        raise not_found(kind, ident)
    return row


def common_fields(row: Row[Any]) -> dict[str, Any]:
    return {"id": row.id, "created_at": row.created_at, "updated_at": row.updated_at}
