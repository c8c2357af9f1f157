"""Tables of evaluation sets and their items."""

from __future__ import annotations

from sqlalchemy import JSON, Column, ForeignKey, Integer, String, Table, Text

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
    # The set's ETag is a digest of its content, kept here once computed (ops.content_etag):
    # every write to the set or its items adds one to the revision and drops the kept digest
    # in its own transaction, and a digest is kept only for the revision it was read at.
    # Both null on a set from before they existed (revision 0, nothing kept).
    Column("content_revision", Integer, nullable=True),
    Column("content_digest", String(64), nullable=True),
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

#: The columns that keep a set's content digest (added by a migration to older databases).
CONTENT_COLUMNS = ("content_revision", "content_digest")
