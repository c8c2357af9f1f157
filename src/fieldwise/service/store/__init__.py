"""Persistence of the local service: the engine, named migrations, shared columns, blobs."""

from fieldwise.service.store.engine import make_engine
from fieldwise.service.store.migrations import (
    Migration,
    adding,
    applied_migrations,
    creating,
    migrate,
)

__all__ = ["Migration", "adding", "applied_migrations", "creating", "make_engine", "migrate"]
