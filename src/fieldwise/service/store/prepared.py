"""Statements built once and run with parameters, for the paths every run takes.

Building a SQLAlchemy statement (``select(…).where(…)``, ``update(…).values(…)``) and
computing its cache key costs about as much as running it on SQLite; a statement whose shape
never changes is built once here, with ``bindparam`` placeholders for the values that do, and
executed with a dict of them. The compiled form is then found in the engine's cache by the
statement's memoized key.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from sqlalchemy import Table, bindparam, select

__all__ = ["by_id", "prepared"]

S = TypeVar("S")

_built: dict[Hashable, Any] = {}


def prepared(key: Hashable, build: Callable[[], S]) -> S:
    """The statement of ``key``, built by ``build()`` the first time (a race builds it twice,
    harmlessly: both are the same statement)."""
    statement = _built.get(key)
    if statement is None:
        statement = _built[key] = build()
    return statement


def by_id(table: Table) -> Any:
    """``SELECT * FROM table WHERE id = :p_id``."""
    return prepared(
        ("by_id", table),
        lambda: select(table).where(table.c.id == bindparam("p_id")),
    )
