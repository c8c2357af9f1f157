"""Tables of processors and their versions."""

from __future__ import annotations

from sqlalchemy import JSON, Column, Float, ForeignKey, Integer, String, Table, Text

from fieldwise.service.store.columns import metadata, seq_column

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
