"""Tables of evaluation sets and their items."""

from __future__ import annotations

from sqlalchemy import JSON, Column, ForeignKey, String, Table, Text

from fieldwise.service.store.columns import metadata, seq_column

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
