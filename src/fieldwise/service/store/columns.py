"""Table definitions. Each table has an integer ``seq`` (insertion order, used by list cursors)
and the public string ``id``. Times are ISO 8601 UTC strings, which sort like the times."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()


def seq_column() -> Column[int]:
    """The ``seq`` primary key every table starts with (list cursors page over it)."""
    return Column(
        "seq", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )


api_keys = Table(
    "api_keys",
    metadata,
    seq_column(),
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("prefix", String(16), nullable=False),
    Column("created_at", String(32), nullable=False),
)

files = Table(
    "files",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    Column("filename", Text, nullable=False),
    Column("content_type", String(200), nullable=False),
    Column("size", BigInteger, nullable=False),
    Column("sha256", String(64), nullable=False, index=True),
    Column("purpose", String(32), nullable=False),
    Column("derived_from", String(40), nullable=True, index=True),
    Column("metadata", JSON, nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
)

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
)

evaluation_sets = Table(
    "evaluation_sets",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    Column("name", Text, nullable=False),
    Column("description", Text, nullable=False),
    Column("metadata", JSON, nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
)

items = Table(
    "evaluation_items",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    Column("eval_set_id", String(40), ForeignKey("evaluation_sets.id"), nullable=False, index=True),
    Column("file_id", String(40), nullable=False, index=True),
    Column("ground_truth", JSON, nullable=False),
    Column("metadata", JSON, nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
)

CORE_TABLES = (api_keys, files, processors, versions, evaluation_sets, items)
