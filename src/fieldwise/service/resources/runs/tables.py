"""The ``processor_runs`` table. Times are ISO 8601 UTC strings, like every table's."""

from __future__ import annotations

from sqlalchemy import JSON, Column, Integer, String, Table, Text

from fieldwise.service.store.columns import metadata, seq_column, timing_columns

processor_runs = Table(
    "processor_runs",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    # None for a generic key/value extraction (POST /extract/path without a processor).
    Column("processor_id", String(80), nullable=True, index=True),
    Column("version_id", String(40), nullable=True, index=True),
    Column("status", String(16), nullable=False, index=True),
    Column("input_path", Text, nullable=False),
    Column("input_file_id", String(40), nullable=False, index=True),
    Column("params", JSON, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("output", JSON, nullable=True),
    Column("output_file_id", String(40), nullable=True),
    Column("output_expired_at", String(32), nullable=True),
    Column("failure_reason", String(64), nullable=True),
    Column("failure_message", Text, nullable=True),
    Column("base_url", Text, nullable=False),
    Column("workflow_run_id", String(40), nullable=True, index=True),
    Column("node_id", String(100), nullable=True),
    *timing_columns(),
)
