"""Webhook tables: endpoints, deliveries (the durable outbox of sends), attempts, notifications,
and the workspace signing secret. Times are ISO 8601 UTC strings, which sort like the times."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    Integer,
    String,
    Table,
    Text,
)

from fieldwise.service.store.columns import metadata, seq_column

endpoints = Table(
    "webhook_endpoints",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    Column("url", String(2048), nullable=False),
    Column("description", Text, nullable=False),
    Column("events", JSON, nullable=False),
    Column("enabled", Boolean, nullable=False),
    Column("secret", String(128), nullable=False),
    # The secret before the last rotation keeps signing (a second v1) until it expires.
    Column("previous_secret", String(128), nullable=True),
    Column("previous_secret_expires_at", String(32), nullable=True),
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
)

deliveries = Table(
    "webhook_deliveries",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    Column("event_id", String(40), nullable=False, index=True),
    Column("event_type", String(64), nullable=False),
    # None for notifications addressed to one URL (signed with the workspace secret).
    Column("endpoint_id", String(40), nullable=True, index=True),
    Column("url", String(2048), nullable=False),
    # The exact bytes sent on every attempt, so each retry carries the same payload.
    Column("body", Text, nullable=False),
    Column("state", String(16), nullable=False, index=True),
    Column("attempt_count", Integer, nullable=False),
    Column("next_attempt_at", String(32), nullable=True, index=True),
    # A sender owns the delivery until this time; a crash mid-send frees it afterwards.
    Column("claimed_until", String(32), nullable=True),
    Column("last_status_code", Integer, nullable=True),
    Column("last_error", Text, nullable=True),
    Column("delivered_at", String(32), nullable=True),
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
)

attempts = Table(
    "webhook_attempts",
    metadata,
    seq_column(),
    Column("delivery_id", String(40), nullable=False, index=True),
    Column("trigger", String(16), nullable=False),
    Column("url", String(2048), nullable=False),
    Column("started_at", String(32), nullable=False),
    Column("status_code", Integer, nullable=True),
    Column("latency_ms", Float, nullable=False),
    Column("error", Text, nullable=True),
    Column("response_excerpt", Text, nullable=True),
)

notifications = Table(
    "webhook_notifications",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    Column("delivery_id", String(40), nullable=False, index=True),
    Column("recipients", JSON, nullable=False),
    Column("subject", Text, nullable=False),
    Column("body", Text, nullable=False),
    # pending → sent | logged (no SMTP or no admins configured) | failed (SMTP kept failing)
    Column("status", String(16), nullable=False, index=True),
    Column("tries", Integer, nullable=False),
    Column("error", Text, nullable=True),
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
)

workspace_secret = Table(
    "webhook_workspace_secret",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    Column("secret", String(128), nullable=False),
    Column("previous_secret", String(128), nullable=True),
    Column("previous_secret_expires_at", String(32), nullable=True),
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
)

WEBHOOK_TABLES = (endpoints, deliveries, attempts, notifications, workspace_secret)
