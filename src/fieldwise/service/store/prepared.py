"""Statements built once and run with parameters, for the paths every run takes.

Building a SQLAlchemy statement (``select(…).where(…)``, ``update(…).values(…)``) and
computing its cache key costs about as much as running it on SQLite; a statement whose shape
never changes is built once here, with ``bindparam`` placeholders for the values that do, and
executed with a dict of them. The compiled form is then found in the engine's cache by the
statement's memoized key.

The statements built hang off the engine they run on (:func:`engine_options` puts a
:class:`Statements` in its execution options, which every connection carries), so two
services in one process (tests, an embedded service beside another) share nothing mutable.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, Row, Table, bindparam, select

__all__ = ["Statements", "by_id", "engine_options", "prepared", "updated_row"]

S = TypeVar("S")

_OPTION = "fieldwise_statements"


class Statements:
    """The statements built once for one engine, by key."""

    def __init__(self) -> None:
        self._built: dict[Hashable, Any] = {}

    def get(self, key: Hashable, build: Callable[[], S]) -> S:
        """The statement of ``key``, built by ``build()`` the first time (a race builds it
        twice, harmlessly: both are the same statement)."""
        statement: S | None = self._built.get(key)
        if statement is None:
            statement = self._built[key] = build()
        return statement


def engine_options() -> dict[str, Any]:
    """The execution options of a new engine (``create_engine(execution_options=…)``): its
    own :class:`Statements`."""
    return {_OPTION: Statements()}


def prepared(bind: Connection | Engine, key: Hashable, build: Callable[[], S]) -> S:
    """The statement of ``key`` on ``bind``'s engine, built by ``build()`` the first time. An
    engine made elsewhere (without :func:`engine_options`) builds it on every call: correct,
    only slower."""
    statements = bind.get_execution_options().get(_OPTION)
    if not isinstance(statements, Statements):
        return build()
    return statements.get(key, build)


def by_id(bind: Connection | Engine, table: Table) -> Any:
    """``SELECT * FROM table WHERE id = :p_id``."""
    return prepared(
        bind,
        ("by_id", table),
        lambda: select(table).where(table.c.id == bindparam("p_id")),
    )


def updated_row(
    conn: Connection,
    move: Any,
    params: Mapping[str, Any] | None,
    read_back: Callable[[], Row[Any] | None],
) -> Row[Any] | None:
    """Run ``move``, a conditional UPDATE of one row, and return that row as written, or None
    when it did not apply. ``move`` carries ``RETURNING`` where the database has it
    (``conn.dialect.update_returning``: SQLite >= 3.35, PostgreSQL), which saves reading the
    row again; elsewhere (an older SQLite) the row count decides and ``read_back()`` reads it."""
    result = conn.execute(move, params)
    if conn.dialect.update_returning:
        return result.first()
    return read_back() if result.rowcount == 1 else None
