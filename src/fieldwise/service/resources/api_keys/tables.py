"""The ``api_keys`` table and the migration that gave keys a name, a scope and a lifecycle.

Keys were first stored as bare hashes (``api_keys_v1``: the shape migration 0001 created on
databases made before keys were a resource). ``upgrade_api_keys`` creates the table on a fresh
database, or adds the new columns to the old one, turning every stored key (the key generated
on the first start) into an admin key that keeps working.
"""

from __future__ import annotations

from sqlalchemy import Column, Connection, MetaData, String, Table, inspect, select, text, update

from fieldwise.service.ids import new_id
from fieldwise.service.store.columns import metadata, seq_column

SCOPES = ("admin", "write", "read")

api_keys = Table(
    "api_keys",
    metadata,
    seq_column(),
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("prefix", String(16), nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("id", String(40), nullable=True, unique=True),
    Column("name", String(200), nullable=True),
    Column("scope", String(16), nullable=True),
    Column("updated_at", String(32), nullable=True),
    Column("last_used_at", String(32), nullable=True),
    Column("revoked_at", String(32), nullable=True),
)

# The columns added to the first shape, as (name, SQL type); nullable so ALTER TABLE can add them.
_ADDED = (
    ("id", "VARCHAR(40)"),
    ("name", "VARCHAR(200)"),
    ("scope", "VARCHAR(16)"),
    ("updated_at", "VARCHAR(32)"),
    ("last_used_at", "VARCHAR(32)"),
    ("revoked_at", "VARCHAR(32)"),
)


def upgrade_api_keys(conn: Connection) -> None:
    """Migration ``0006_api_key_scopes``: create the table, or upgrade the first shape."""
    if not inspect(conn).has_table("api_keys"):
        api_keys.create(conn)
        return
    present = {c["name"] for c in inspect(conn).get_columns("api_keys")}
    for name, sql_type in _ADDED:
        if name not in present:
            conn.execute(text(f"ALTER TABLE api_keys ADD COLUMN {name} {sql_type}"))
    for row in conn.execute(select(api_keys.c.seq, api_keys.c.created_at)).all():
        conn.execute(
            update(api_keys)
            .where(api_keys.c.seq == row.seq, api_keys.c.id.is_(None))
            .values(
                id=new_id("key"),
                name="generated at first start",
                scope="admin",
                updated_at=row.created_at,
            )
        )
    conn.execute(text("CREATE UNIQUE INDEX IF NOT EXISTS ix_api_keys_id ON api_keys (id)"))


# The first shape, kept only so old databases and the upgrade test can be reproduced.
_v1 = MetaData()
api_keys_v1 = Table(
    "api_keys",
    _v1,
    seq_column(),
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("prefix", String(16), nullable=False),
    Column("created_at", String(32), nullable=False),
)
