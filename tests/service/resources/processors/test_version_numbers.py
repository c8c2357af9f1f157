"""Migration 0009: a database whose versions got duplicate numbers (before the unique index)
is renumbered, then holds one number per version of a processor."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import delete, insert, select, text
from sqlalchemy.exc import IntegrityError

from fieldwise.service.app import MIGRATIONS
from fieldwise.service.resources.processors.tables import processors, versions
from fieldwise.service.store import make_engine, migrate
from fieldwise.service.store.migrations import migrations_table

NAME = "0009_version_number_unique"


def _version(seq: int, number: int) -> dict[str, object]:
    stamp = "2026-01-01T00:00:00.000000Z"
    return {
        "seq": seq,
        "id": f"ver_{seq}",
        "processor_id": "p",
        "number": number,
        "status": "drafted",
        "description": "",
        "config": {},
        "published_at": None,
        "created_at": stamp,
        "updated_at": stamp,
    }


def test_duplicate_version_numbers_are_renumbered_and_then_refused(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    migrate(engine, MIGRATIONS)
    stamp = "2026-01-01T00:00:00.000000Z"
    with engine.begin() as conn:
        # The shape before 0009: no unique index, and a race left duplicates behind.
        conn.execute(text("DROP INDEX ux_versions_processor_number"))
        conn.execute(delete(migrations_table).where(migrations_table.c.name == NAME))
        conn.execute(
            insert(processors).values(
                id="p",
                name="p",
                type="extract",
                description="",
                confidence_threshold=None,
                default_version_id=None,
                created_at=stamp,
                updated_at=stamp,
            )
        )
        for seq, number in [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3)]:
            conn.execute(insert(versions).values(**_version(seq, number)))
    assert migrate(engine, MIGRATIONS) == [NAME]
    with engine.connect() as conn:
        numbers = {r.seq: r.number for r in conn.execute(select(versions.c.seq, versions.c.number))}
    # The first of each duplicate keeps its number; the later ones move past the highest.
    assert numbers == {1: 1, 2: 4, 3: 2, 4: 5, 5: 3}
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(insert(versions).values(**_version(6, 3)))
