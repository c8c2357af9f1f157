"""Tables of parse runs and of the parsed-document cache."""

from __future__ import annotations

from sqlalchemy import Column, Integer, String, Table, Text

from fieldwise.service.store.columns import metadata, seq_column, timing_columns

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
    *timing_columns(),
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
