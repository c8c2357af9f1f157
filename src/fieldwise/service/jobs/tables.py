"""The job table: one row per unit of background work (a processor run, a parse run, a
workflow step, an evaluation run), with the lease of the worker that holds it."""

from __future__ import annotations

from sqlalchemy import Column, Integer, String, Table

from fieldwise.service.store.columns import metadata, seq_column

#: ``queued`` → ``running`` → ``finished``. A ``running`` job carries a lease (a token and an
#: expiry its worker renews); only a job whose lease expired is recovered: re-queued, or
#: abandoned after ``max_attempts`` (:func:`fieldwise.service.jobs.recover`).
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
    Column("lease_token", String(40), nullable=True),
    Column("lease_expires_at", String(32), nullable=True, index=True),
)

#: Added by migration ``0006_job_leases`` to databases made before leases.
LEASE_COLUMNS = ("lease_token", "lease_expires_at")
