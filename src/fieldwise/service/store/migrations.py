"""Named schema migrations, applied once each and recorded in the ``migrations`` table.

A migration is a name and a function of a connection. The list is not kept here: the store
knows no resource, so ``fieldwise.service.app.MIGRATIONS`` (assembled from every resource's
tables) is handed in. Add new ones at its end; never rename or reorder applied ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    MetaData,
    String,
    Table,
    insert,
    inspect,
    select,
    text,
)

from fieldwise.service.ids import isoformat

Migration = tuple[str, Callable[[Connection], None]]

_meta = MetaData()
migrations_table = Table(
    "migrations",
    _meta,
    Column("name", String(200), primary_key=True),
    Column("applied_at", String(32), nullable=False),
)


def creating(*tables: Table) -> Callable[[Connection], None]:
    """A migration body that creates ``tables`` (as they were defined when it was added)."""

    def apply(conn: Connection) -> None:
        tables[0].metadata.create_all(conn, tables=list(tables))

    return apply


def adding(table: Table, *names: str) -> Callable[[Connection], None]:
    """A migration body that adds the columns ``names`` of ``table`` (and their indexes) to a
    database made before they existed; a database created with them is left as it is."""

    def apply(conn: Connection) -> None:
        present = {c["name"] for c in inspect(conn).get_columns(table.name)}
        for name in names:
            if name in present:
                continue
            column = table.c[name]
            kind = column.type.compile(dialect=conn.dialect)
            conn.execute(text(f'ALTER TABLE {table.name} ADD COLUMN "{name}" {kind}'))
        for index in table.indexes:
            if {c.name for c in index.columns} & set(names):
                index.create(conn, checkfirst=True)

    return apply


def applied_migrations(engine: Engine) -> list[str]:
    with engine.connect() as conn:
        _meta.create_all(conn)
        conn.commit()
        return [row.name for row in conn.execute(select(migrations_table.c.name))]


def migrate(engine: Engine, migrations: Sequence[Migration]) -> list[str]:
    """Apply every migration not yet recorded, each in its own transaction; return their names."""
    done = set(applied_migrations(engine))
    newly: list[str] = []
    for name, apply in migrations:
        if name in done:
            continue
        with engine.begin() as conn:
            apply(conn)
            conn.execute(
                insert(migrations_table).values(name=name, applied_at=isoformat(datetime.now(UTC)))
            )
        newly.append(name)
    return newly
