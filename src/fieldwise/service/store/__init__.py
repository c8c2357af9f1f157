"""Persistence of the local service: SQLAlchemy Core tables, named migrations, the engine."""

from fieldwise.service.store.engine import make_engine
from fieldwise.service.store.migrations import MIGRATIONS, applied_migrations, migrate

__all__ = ["MIGRATIONS", "applied_migrations", "make_engine", "migrate"]
