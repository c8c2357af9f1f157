"""Tables of workflows, workflow runs and batch runs."""

from __future__ import annotations

from sqlalchemy import JSON, Column, Integer, String, Table, Text

from fieldwise.service.store.columns import metadata, seq_column, timing_columns

workflows = Table(
    "workflows",
    metadata,
    seq_column(),
    Column("id", String(80), nullable=False, unique=True),
    Column("name", Text, nullable=False),
    Column("nodes", JSON, nullable=False),
    Column("edges", JSON, nullable=True),
    Column("order", JSON, nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
)

workflow_runs = Table(
    "workflow_runs",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    Column("workflow_id", String(80), nullable=False, index=True),
    Column("batch_id", String(40), nullable=True, index=True),
    Column("status", String(16), nullable=False, index=True),
    Column("input_file_id", String(40), nullable=False),
    Column("metadata", JSON, nullable=False),
    Column("labels", JSON, nullable=False),
    Column("notes", Text, nullable=False),
    Column("node_index", Integer, nullable=False),
    Column("failure_reason", String(64), nullable=True),
    Column("failure_message", Text, nullable=True),
    Column("base_url", Text, nullable=False),
    *timing_columns(),
)

batches = Table(
    "workflow_batches",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    Column("workflow_id", String(80), nullable=False, index=True),
    Column("file_ids", JSON, nullable=False),
    Column("run_ids", JSON, nullable=False),
    Column("is_async", Integer, nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
)
