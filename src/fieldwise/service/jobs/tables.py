"""The job table: one row per unit of background work (a processor run, a parse run)."""

from __future__ import annotations

from sqlalchemy import Column, Integer, String, Table

from fieldwise.service.store.columns import metadata, seq_column

#: ``queued`` → ``running`` → ``finished``; a crash leaves ``running`` rows that
#: :func:`fieldwise.service.jobs.recover` re-queues or abandons at the next start.
JOB_STATES = ("queued", "running", "finished")

jobs = Table(
    "jobs",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    Column("kind", String(32), nullable=False),
    Column("target_id", String(40), nullable=False, index=True),
    Column("status", String(16), nullable=False, index=True),
    Column("attempts", Integer, nullable=False),
    Column("max_attempts", Integer, nullable=False),
    Column("owner", String(40), nullable=True),
    Column("created_at", String(32), nullable=False),
    Column("claimed_at", String(32), nullable=True),
    Column("finished_at", String(32), nullable=True),
)
