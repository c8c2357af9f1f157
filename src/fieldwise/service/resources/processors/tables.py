"""Tables of processors and their versions."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Column,
    Connection,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    func,
    select,
    update,
)

from fieldwise.service.store.columns import metadata, seq_column

processors = Table(
    "processors",
    metadata,
    seq_column(),
    Column("id", String(80), nullable=False, unique=True),
    Column("name", Text, nullable=False),
    Column("type", String(32), nullable=False),
    Column("description", Text, nullable=False),
    Column("confidence_threshold", Float, nullable=True),
    Column("default_version_id", String(40), nullable=True),
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
)

versions = Table(
    "versions",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    Column("processor_id", String(80), ForeignKey("processors.id"), nullable=False, index=True),
    Column("number", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("description", Text, nullable=False),
    Column("config", JSON, nullable=False),
    Column("published_at", String(32), nullable=True),
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
    # The last gate verdict recorded for the version (PUT .../verdict), and, when it was
    # published although that verdict was not a pass, who overrode it, when, and the verdict.
    Column("verdict", JSON, nullable=True),
    Column("publish_override", JSON, nullable=True),
)

#: One number per version of a processor: a writer that collides retries (migration 0009).
version_number_unique = Index(
    "ux_versions_processor_number", versions.c.processor_id, versions.c.number, unique=True
)


def unique_version_numbers(conn: Connection) -> None:
    """Renumber versions that got a duplicate number (the later ones move past the highest),
    then add the unique (processor_id, number) index."""
    duplicated = conn.execute(
        select(versions.c.processor_id, versions.c.number)
        .group_by(versions.c.processor_id, versions.c.number)
        .having(func.count() > 1)
    ).all()
    for processor_id, number in duplicated:
        highest = conn.execute(
            select(func.max(versions.c.number)).where(versions.c.processor_id == processor_id)
        ).scalar_one()
        later = conn.execute(
            select(versions.c.seq)
            .where(versions.c.processor_id == processor_id, versions.c.number == number)
            .order_by(versions.c.seq)
            .offset(1)
        ).scalars()
        for offset, seq in enumerate(list(later), start=1):
            conn.execute(
                update(versions).where(versions.c.seq == seq).values(number=highest + offset)
            )
    version_number_unique.create(conn, checkfirst=True)
