"""The ``files`` table: one row per stored file (uploads, run outputs, parse inputs and
outputs, parsed-document cache entries), its bytes in the blob store by sha256."""

from __future__ import annotations

from sqlalchemy import JSON, BigInteger, Column, String, Table, Text

from fieldwise.service.store.columns import metadata, seq_column

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
