"""Persistence of the local service: the engine, named migrations, shared columns, blobs."""

from fieldwise.service.store.engine import database_url, make_engine
from fieldwise.service.store.migrations import (
    Migration,
    adding,
    applied_migrations,
    creating,
    migrate,
)

__all__ = [
    "Migration",
    "adding",
    "applied_migrations",
    "creating",
    "database_url",
    "make_engine",
    "migrate",
]
