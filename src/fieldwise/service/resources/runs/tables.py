"""Tables of runs: processor runs, parse runs and their parse cache, workflows, workflow runs
and batches. Times are ISO 8601 UTC strings, like the core tables."""

from __future__ import annotations

from sqlalchemy import JSON, Column, Connection, Integer, String, Table, Text

from fieldwise.service.store.columns import metadata, seq_column

#: Every run's states; the last three are terminal.
RUN_STATES = ("queued", "in_progress", "succeeded", "failed", "canceled")
TERMINAL = ("succeeded", "failed", "canceled")


def _timings() -> list[Column[str]]:
    return [
        Column("queued_at", String(32), nullable=False),
        Column("started_at", String(32), nullable=True),
        Column("finished_at", String(32), nullable=True),
        Column("created_at", String(32), nullable=False),
        Column("updated_at", String(32), nullable=False),
    ]


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
    *_timings(),
)

parse_runs = Table(
    "parse_runs",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    Column("status", String(16), nullable=False, index=True),
    Column("format", String(16), nullable=False),
    Column("filename", Text, nullable=False),
    Column("input_file_id", String(40), nullable=True),
    Column("output_file_id", String(40), nullable=True),
    Column("page_count", Integer, nullable=True),
    Column("webhook_url", Text, nullable=True),
    Column("attempts", Integer, nullable=False),
    Column("failure_reason", String(64), nullable=True),
    Column("failure_message", Text, nullable=True),
    Column("base_url", Text, nullable=False),
    *_timings(),
)

# One parse per document content: the parsed form is a file (purpose "parsed") derived from
# the input file, so deleting the input deletes the cache entry's file too.
parse_cache = Table(
    "parse_cache",
    metadata,
    seq_column(),
    Column("key", String(80), nullable=False, unique=True),
    Column("file_id", String(40), nullable=False, index=True),
    Column("created_at", String(32), nullable=False),
)

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
    *_timings(),
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

RUN_TABLES = (processor_runs, parse_runs, parse_cache, workflows, workflow_runs, batches)


def create_run_tables(conn: Connection) -> None:
    """Migration ``0003_runs_and_jobs``: the job table and every run table."""
    from fieldwise.service.jobs import create_jobs_table

    create_jobs_table(conn)
    metadata.create_all(conn, tables=list(RUN_TABLES))
