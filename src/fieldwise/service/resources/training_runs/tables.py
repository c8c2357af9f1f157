"""The ``training_runs`` table. Times are ISO 8601 UTC strings, like every table's."""

from __future__ import annotations

from sqlalchemy import JSON, Column, Integer, String, Table, Text

from fieldwise.service.store.columns import metadata, seq_column, timing_columns

training_runs = Table(
    "training_runs",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    Column("processor_id", String(80), nullable=False, index=True),
    Column("eval_set_id", String(40), nullable=False),
    Column("base_version_id", String(40), nullable=True),
    # The split asked for (None when item ids were given) and the items it resolved to.
    Column("split", String(64), nullable=True),
    Column("item_ids", JSON, nullable=False),
    Column("params", JSON, nullable=False),
    # The field specs trained for (the base version's, in the rule engine's config shape).
    Column("fields", JSON, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("attempts", Integer, nullable=False),
    # What the worker is doing (queued, parsing, training, storing) and how far it is.
    Column("stage", String(16), nullable=False),
    Column("progress_done", Integer, nullable=False),
    Column("progress_total", Integer, nullable=False),
    Column("model_sha256", String(64), nullable=True),
    Column("model_size", Integer, nullable=True),
    Column("version_id", String(40), nullable=True),
    Column("failure_reason", String(64), nullable=True),
    Column("failure_message", Text, nullable=True),
    *timing_columns(),
)
