"""The one template of a durable run's job: a run kind says what it does, this says how.

A kind subclasses :class:`RunJob` with its :class:`~fieldwise.service.jobs.durable.DurableRuns`
(whose ``started``/``ended`` hooks record its events) and writes :meth:`RunJob.work`, the job's
body, which ends the run itself when it succeeds (in the transaction that stores its output)
and otherwise signals:

- :class:`~fieldwise.service.jobs.durable.RunStopped`: the run was canceled or deleted, or the
  lease lost: drop the work (a lost lease is logged);
- :class:`~fieldwise.service.jobs.durable.RunInterrupted`: the service is stopping: the job
  and the run go back to ``queued``;
- :class:`~fieldwise.service.jobs.durable.RunFailed`: the run ends ``failed`` under the lease.

Claiming and heartbeats are the worker pool's (:mod:`~fieldwise.service.jobs.pool`); the pool
calls :meth:`RunJob.fail` for a crashed body or a job that lost its worker too often, and
:meth:`RunJob.requeue` when it recovers a lost job.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection, Row

from fieldwise.service.clock import Clock
from fieldwise.service.jobs.context import JobContext
from fieldwise.service.jobs.durable import (
    DurableRuns,
    RunFailed,
    RunInterrupted,
    RunStopped,
)
from fieldwise.service.jobs.queue import Job, fail_or_release, held, requeue
from fieldwise.service.run_states import ACTIVE

log = logging.getLogger("fieldwise.service.jobs")

C = TypeVar("C", bound=JobContext)


class RunJob(ABC, Generic[C]):
    """The job handler of one durable run kind (``runs``); subclasses write :meth:`work`."""

    def __init__(self, runs: DurableRuns) -> None:
        self.runs = runs

    @abstractmethod
    def work(self, state: C, row: Row[Any], job: Job) -> None:
        """The job's body for the started run ``row``: end it succeeded in the transaction that
        stores its output (None from ``runs.finish``: raise RunStopped), or raise one of the
        signals above."""

    def run(self, state: C, job: Job) -> None:
        row = self.runs.start(state.engine, state.clock, job)
        if row is None:  # gone, or canceled before it started: the job was released
            return
        try:
            self.work(state, row, job)
        except RunStopped:
            self._report_lost(state, job)
        except RunInterrupted:
            with state.engine.begin() as conn:
                if requeue(conn, job):
                    self.runs.requeue(conn, state.clock, row.id)
        except RunFailed as failure:
            with state.engine.begin() as conn:
                self.runs.fail(
                    conn,
                    state.clock,
                    row.id,
                    failure.reason,
                    failure.message,
                    job=job,
                    values=failure.values,
                )

    def check(self, state: C, run_id: str, job: Job) -> None:
        """Between stages: RunStopped when the run was canceled or deleted, or the lease lost."""
        if state.leases.lost(job) or self.runs.status_of(state.engine, run_id) != "in_progress":
            raise RunStopped

    def fail(self, state: C, job: Job, reason: str, message: str) -> None:
        """End the job's run ``failed`` (from queued or in progress), or only release the job
        when the run already ended or the lease is gone; then wake whoever waits on it."""
        try:
            fail_or_release(
                state.engine,
                state.clock,
                job,
                lambda conn: (
                    self.runs.fail(
                        conn,
                        state.clock,
                        job.target_id,
                        reason,
                        message,
                        job=job,
                        from_states=ACTIVE,
                    )
                    is not None
                ),
            )
        finally:
            state.waiters.notify(job.target_id)

    def requeue(self, conn: Connection, clock: Clock, target_id: str) -> bool:
        return self.runs.requeue(conn, clock, target_id)

    def _report_lost(self, state: C, job: Job) -> None:
        """Say so when work is dropped because another process took the job over (not merely
        because the run was canceled or deleted)."""
        with state.engine.connect() as conn:
            still_ours = held(conn, job)
        if still_ours or self.runs.status_of(state.engine, job.target_id) in (None, "canceled"):
            return
        log.warning(
            "job %s (run %s): its lease was lost to another process; the result is dropped",
            job.id,
            job.target_id,
        )
