"""The worker pool: threads that claim jobs from the database and run their handlers.

CPU-bound work (parsing, OCR, extraction) runs in these threads, never on the API's event
loop. A job queued by this process wakes an idle worker once its transaction committed
(:mod:`~fieldwise.service.jobs.signal`); idle workers also poll the table with a short
back-off, so jobs enqueued by other processes (and jobs re-queued by recovery) are picked up
without any signal. Every claim carries a
lease the process's :class:`~fieldwise.service.jobs.leases.LeaseKeeper` renews; each heartbeat
the pool also recovers jobs whose lease expired, in whichever process held them.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Generic, Protocol, TypeVar

from sqlalchemy import Connection

from fieldwise.service.clock import Clock
from fieldwise.service.jobs.context import JobContext
from fieldwise.service.jobs.queue import (
    Job,
    claim,
    expired,
    finish_job,
    orphans,
    requeue,
    take_over,
)
from fieldwise.service.jobs.signal import job_signal

log = logging.getLogger("fieldwise.service.jobs")

_IDLE_MIN = 0.02
_IDLE_MAX = 0.25

#: The service a pool works in; its handlers get it as it is (the service's state).
C = TypeVar("C", bound=JobContext)
C_in = TypeVar("C_in", bound=JobContext, contravariant=True)


class JobHandler(Protocol[C_in]):
    """What the pool needs to know about one kind of job."""

    def run(self, state: C_in, job: Job) -> None:
        """Do the work; the handler finishes the job in its terminal transaction."""

    def fail(self, state: C_in, job: Job, reason: str, message: str) -> None:
        """Move the target to a failed terminal state and finish the job."""

    def requeue(self, conn: Connection, clock: Clock, target_id: str) -> bool:
        """Reset an interrupted target to queued; False when it is already terminal or gone."""


def recover(
    state: C, handlers: Mapping[str, JobHandler[C]], *, every_other_owner: bool = False
) -> tuple[int, int]:
    """Take back jobs whose worker was lost: re-queue them, or fail them once they have used
    up their attempts. Returns ``(requeued, failed)``.

    Only jobs whose lease expired are taken, one conditional UPDATE each (of two recoverers one
    wins); ``every_other_owner`` takes every job another process holds, for a process that
    knows it is the only one allowed to claim (SQLite, after taking the claim lock).
    """
    kinds = tuple(handlers)
    keeper = state.leases
    with state.engine.connect() as conn:
        if every_other_owner:
            lost = orphans(conn, kinds, keeper.owner)
        else:
            lost = expired(conn, state.clock.now(), kinds)
    requeued = failed = 0
    for seen in lost:
        handler = handlers[seen.kind]
        with state.engine.begin() as conn:
            job = take_over(
                conn,
                state.clock,
                seen,
                keeper.owner,
                only_expired=not every_other_owner,
                lease=keeper.duration,
            )
            if job is None:
                continue
            if job.attempts < job.max_attempts:
                if handler.requeue(conn, state.clock, job.target_id):
                    requeue(conn, job)
                    requeued += 1
                else:
                    finish_job(conn, state.clock, job.id)
                continue
        handler.fail(
            state,
            job,
            "worker_lost",
            f"the worker running this was lost (its process stopped or froze) {job.attempts} "
            "times; it was not retried again",
        )
        failed += 1
    if requeued or failed:
        log.warning("recovered lost jobs: %d re-queued, %d failed", requeued, failed)
    return requeued, failed


class WorkerPool(Generic[C]):
    """``settings.workers`` threads (or ``threads``) running jobs of the kinds in ``handlers``."""

    def __init__(
        self,
        state: C,
        handlers: Mapping[str, JobHandler[C]],
        *,
        threads: int | None = None,
    ) -> None:
        self.state = state
        self.handlers = dict(handlers)
        self.threads = max(1, state.settings.workers if threads is None else threads)
        self.keeper = state.leases
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._recovered_at = 0.0
        self._recovery = threading.Lock()
        self._signal = job_signal(state.engine)
        self._wakes = self._signal.subscribe(tuple(self.handlers), self.threads)

    def start(self, *, every_other_owner: bool = False) -> None:
        """Recover lost jobs (``every_other_owner``: see :func:`recover`), then start."""
        self._stop.clear()
        recover(self.state, self.handlers, every_other_owner=every_other_owner)
        self._recovered_at = time.monotonic()
        for n in range(self.threads):
            thread = threading.Thread(target=self._loop, name=f"fieldwise-worker-{n}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        self._wakes.give(len(self._threads))  # now, not after their back-off
        for thread in self._threads:
            thread.join(timeout=30)
        self._threads.clear()
        for handler in self.handlers.values():
            close = getattr(handler, "close", None)
            if close is not None:  # a handler owning worker processes stops them
                close()

    def run_one(self) -> bool:
        """Claim and run one job; False when none was queued."""
        job = claim(
            self.state.engine,
            self.state.clock,
            self.keeper.owner,
            tuple(self.handlers),
            lease=self.keeper.duration,
        )
        if job is None:
            return False
        handler = self.handlers[job.kind]
        self.keeper.hold(job)
        try:
            handler.run(self.state, job)
        except Exception as exc:  # a bug must fail the run, not kill the worker
            log.exception("job %s (%s %s) crashed", job.id, job.kind, job.target_id)
            handler.fail(self.state, job, "internal_error", f"{type(exc).__name__}: {exc}")
        finally:
            self.keeper.drop(job)
            # Committed (or dropped) by now: a request held on this work reads it again.
            self.state.waiters.notify(job.target_id)
        return True

    def _recover_when_due(self) -> None:
        """Once per heartbeat interval (one thread at a time), recover expired leases."""
        if time.monotonic() - self._recovered_at < self.keeper.interval:
            return
        if not self._recovery.acquire(blocking=False):
            return
        try:
            self._recovered_at = time.monotonic()
            recover(self.state, self.handlers)
        finally:
            self._recovery.release()

    def _loop(self) -> None:
        idle = _IDLE_MIN
        while not self._stop.is_set():
            try:
                self._recover_when_due()
                worked = self.run_one()
            except Exception:  # the database may be briefly unavailable; keep the worker
                log.exception("worker loop error")
                worked = False
            if worked:
                idle = _IDLE_MIN
                continue
            # woken: a job was queued here, claim it now; else poll again, later each time
            idle = _IDLE_MIN if self._wakes.wait(idle) else min(_IDLE_MAX, idle * 2)


class StoppingPool(Generic[C]):
    """A worker pool of its own for one run kind whose job body takes long (an evaluation
    waiting on its processor runs, a training): it builds the kind's handler with the
    ``stopping`` event that :meth:`stop` sets, so the body can hand its run back to the queue
    (``RunInterrupted``) instead of holding the service's shutdown."""

    def __init__(
        self,
        state: C,
        kind: str,
        handler: Callable[[threading.Event], JobHandler[C]],
        *,
        threads: int | None = None,
    ) -> None:
        self._stopping = threading.Event()
        self.pool = WorkerPool(state, {kind: handler(self._stopping)}, threads=threads)

    def start(self, *, every_other_owner: bool = False) -> None:
        self._stopping.clear()
        self.pool.start(every_other_owner=every_other_owner)

    def stop(self) -> None:
        self._stopping.set()
        self.pool.stop()
