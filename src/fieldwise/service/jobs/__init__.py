"""Durable background jobs: a table, atomic claims, a worker pool, recovery after a crash.

- :func:`enqueue` adds a job in the caller's transaction; :func:`claim` takes the oldest
  queued one atomically; handlers finish jobs with :func:`finish_jobs` in their terminal
  transaction.
- :class:`WorkerPool` runs ``settings.workers`` threads; on start it calls :func:`recover`,
  which re-queues jobs a killed process left running (up to ``max_attempts``) or fails them.
"""

from __future__ import annotations

from fieldwise.service.jobs.pool import JobHandler, WorkerPool, recover
from fieldwise.service.jobs.queue import (
    DEFAULT_MAX_ATTEMPTS,
    Job,
    claim,
    delete_jobs,
    enqueue,
    finish_job,
    finish_jobs,
)
from fieldwise.service.jobs.tables import JOB_STATES, jobs

__all__ = [
    "DEFAULT_MAX_ATTEMPTS",
    "JOB_STATES",
    "Job",
    "JobHandler",
    "WorkerPool",
    "claim",
    "delete_jobs",
    "enqueue",
    "finish_job",
    "finish_jobs",
    "jobs",
    "recover",
]
