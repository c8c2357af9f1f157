"""Tables of evaluation runs: the run, the items it snapshotted (each with its processor run),
and the scored cells. Times are ISO 8601 UTC strings, like the core tables."""

from __future__ import annotations

from sqlalchemy import JSON, Column, Float, Integer, String, Table, Text

from fieldwise.service.store.columns import metadata, seq_column

evaluation_runs = Table(
    "evaluation_runs",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    Column("eval_set_id", String(40), nullable=False, index=True),
    Column("processor_id", String(80), nullable=False),
    Column("version_id", String(40), nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("attempts", Integer, nullable=False),
    Column("metrics", JSON, nullable=True),
    Column("failure_reason", String(64), nullable=True),
    Column("failure_message", Text, nullable=True),
    Column("base_url", Text, nullable=False),
    Column("queued_at", String(32), nullable=False),
    Column("started_at", String(32), nullable=True),
    Column("finished_at", String(32), nullable=True),
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
)

# The items as they were when the evaluation started (ground truth included), so later edits
# of the set do not change what a finished evaluation scored.
evaluation_run_items = Table(
    "evaluation_run_items",
    metadata,
    seq_column(),
    Column("evaluation_run_id", String(40), nullable=False, index=True),
    Column("item_id", String(40), nullable=False),
    Column("file_id", String(40), nullable=False),
    Column("ground_truth", JSON, nullable=False),
    Column("processor_run_id", String(40), nullable=False, index=True),
)

# One row per scored cell, inserted sorted by (item, field, row) so ``seq`` pages in that order.
evaluation_results = Table(
    "evaluation_results",
    metadata,
    seq_column(),
    Column("evaluation_run_id", String(40), nullable=False, index=True),
    Column("item_id", String(40), nullable=False),
    Column("file_id", String(40), nullable=False),
    Column("processor_run_id", String(40), nullable=False),
    Column("run_status", String(16), nullable=False),
    Column("field", Text, nullable=False),
    Column("row", Integer, nullable=True),
    Column("expected", JSON, nullable=True),
    Column("predicted", JSON, nullable=True),
    Column("outcome", String(16), nullable=False),
    Column("confidence", Float, nullable=True),
    Column("score", Float, nullable=True),
)

EVALUATION_TABLES = (evaluation_runs, evaluation_run_items, evaluation_results)
