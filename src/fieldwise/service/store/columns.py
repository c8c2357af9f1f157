"""What every table shares: one ``MetaData`` and the columns each table starts or ends with.

Each resource defines its tables in its own ``tables.py`` on :data:`metadata`. Every table has an
integer ``seq`` (insertion order, used by list cursors) and the public string ``id``. Times are
ISO 8601 UTC strings, which sort like the times."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Integer, MetaData, String

metadata = MetaData()


def seq_column() -> Column[int]:
    """The ``seq`` primary key every table starts with (list cursors page over it)."""
    return Column(
        "seq", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )


def timing_columns() -> list[Column[str]]:
    """When a durable run was queued, started, finished, created and updated."""
    return [
        Column("queued_at", String(32), nullable=False),
        Column("started_at", String(32), nullable=True),
        Column("finished_at", String(32), nullable=True),
        Column("created_at", String(32), nullable=False),
        Column("updated_at", String(32), nullable=False),
    ]
