"""The worker pool: threads that claim jobs from the database and run their handlers.

CPU-bound work (parsing, OCR, extraction) runs in these threads, never on the API's event
loop. Idle workers poll the table with a short back-off, so jobs enqueued by any process
(and jobs re-queued by recovery) are picked up without an in-memory signal.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import Protocol

from sqlalchemy import Connection

from fieldwise.service.clock import Clock
from fieldwise.service.ids import new_id
from fieldwise.service.jobs.queue import Job, claim, finish_jobs, interrupted, requeue
from fieldwise.service.state import ServiceState

log = logging.getLogger("fieldwise.service.jobs")

_IDLE_MIN = 0.02
_IDLE_MAX = 0.25


class JobHandler(Protocol):
    """What the pool needs to know about one kind of job."""

    def run(self, state: ServiceState, job: Job) -> None:
        """Do the work; the handler finishes the job in its terminal transaction."""

    def fail(self, state: ServiceState, job: Job, reason: str, message: str) -> None:
        """Move the target to a failed terminal state and finish the job."""

    def requeue(self, conn: Connection, clock: Clock, target_id: str) -> bool:
        """Reset an interrupted target to queued; False when it is already terminal or gone."""


def recover(state: ServiceState, handlers: Mapping[str, JobHandler]) -> tuple[int, int]:
    """Deal with jobs a dead process left running: re-queue them, or fail them once they have
    used up their attempts. Returns ``(requeued, failed)``."""
    requeued = failed = 0
    with state.engine.connect() as conn:
        lost = interrupted(conn)
    for job in lost:
        handler = handlers.get(job.kind)
        if handler is None:
            continue
        if job.attempts >= job.max_attempts:
            handler.fail(
                state,
                job,
                "worker_lost",
                f"the service stopped while this run was in progress, {job.attempts} times; "
                "it was not retried again",
            )
            failed += 1
            continue
        with state.engine.begin() as conn:
            if handler.requeue(conn, state.clock, job.target_id):
                requeue(conn, job.id)
                requeued += 1
            else:
                finish_jobs(conn, state.clock, job.target_id)
    if lost:
        log.warning(
            "recovered %d interrupted jobs: %d re-queued, %d failed", len(lost), requeued, failed
        )
    return requeued, failed


class WorkerPool:
    """``settings.workers`` threads running jobs of the kinds in ``handlers``."""

    def __init__(self, state: ServiceState, handlers: Mapping[str, JobHandler]) -> None:
        self.state = state
        self.handlers = dict(handlers)
        self.owner = new_id("wrk", 12)
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        recover(self.state, self.handlers)
        for n in range(max(1, self.state.settings.workers)):
            thread = threading.Thread(target=self._loop, name=f"fieldwise-worker-{n}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=30)
        self._threads.clear()

    def run_one(self) -> bool:
        """Claim and run one job; False when none was queued."""
        job = claim(self.state.engine, self.state.clock, self.owner, tuple(self.handlers))
        if job is None:
            return False
        handler = self.handlers[job.kind]
        try:
            handler.run(self.state, job)
        except Exception as exc:  # a bug must fail the run, not kill the worker
            log.exception("job %s (%s %s) crashed", job.id, job.kind, job.target_id)
            handler.fail(self.state, job, "internal_error", f"{type(exc).__name__}: {exc}")
        return True

    def _loop(self) -> None:
        idle = _IDLE_MIN
        while not self._stop.is_set():
            try:
                worked = self.run_one()
            except Exception:  # the database may be briefly unavailable; keep the worker
                log.exception("worker loop error")
                worked = False
            if worked:
                idle = _IDLE_MIN
                continue
            self._stop.wait(idle)
            idle = min(_IDLE_MAX, idle * 2)
