"""Durable background jobs: a table, leased claims, a worker pool, recovery of lost workers.

- :func:`enqueue` adds a job in the caller's transaction; :func:`claim` takes the oldest
  queued one with a lease (a token and an expiry); the process's
  :class:`~fieldwise.service.jobs.leases.LeaseKeeper` renews it while the work runs.
- :class:`~fieldwise.service.jobs.durable.DurableRuns` is the one lifecycle of every job-backed
  run kind; its terminal moves succeed only under the job's lease.
- :class:`~fieldwise.service.jobs.template.RunJob` is the one job of every run kind: a kind
  writes its body, the template starts the run and stops, requeues or fails it.
- :class:`~fieldwise.service.jobs.pool.WorkerPool` runs ``settings.workers`` threads and
  recovers jobs whose lease expired (re-queued up to ``max_attempts``, then failed).
- :class:`~fieldwise.service.jobs.workers.JobWorkers` starts the pools once this process may
  claim (on SQLite one process at a time).
"""

from __future__ import annotations

from fieldwise.service.jobs.queue import (
    DEFAULT_MAX_ATTEMPTS,
    Job,
    claim,
    delete_jobs,
    enqueue,
    fail_or_release,
    finish_job,
    finish_jobs,
    held,
    release,
    requeue,
)
from fieldwise.service.jobs.tables import JOB_STATES, jobs

__all__ = [
    "DEFAULT_MAX_ATTEMPTS",
    "JOB_STATES",
    "Job",
    "claim",
    "delete_jobs",
    "enqueue",
    "fail_or_release",
    "finish_job",
    "finish_jobs",
    "held",
    "jobs",
    "release",
    "requeue",
]
