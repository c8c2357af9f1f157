"""The leases a process holds, renewed by one heartbeat thread.

Every job a worker (or a request doing a synchronous parse) holds is registered here; every
``interval`` seconds each lease is extended to ``now + duration`` by a conditional UPDATE on its
token. A lease that could not be renewed was lost (it expired and another process recovered
the job): :meth:`LeaseKeeper.lost` says so, and the holder's final move fails anyway.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

from sqlalchemy import Engine

from fieldwise.service.clock import Clock
from fieldwise.service.ids import new_id
from fieldwise.service.jobs.queue import Job, finished_under, renew
from fieldwise.service.jobs.ticker import Ticker

log = logging.getLogger("fieldwise.service.jobs")


class LeaseKeeper:
    """Renews this process's leases; ``owner`` names the process in the ``jobs`` table."""

    def __init__(self, engine: Engine, clock: Clock, duration: float, interval: float) -> None:
        self.engine = engine
        self.clock = clock
        self.duration = timedelta(seconds=duration)
        self.interval = interval
        self.owner = new_id("proc", 12)
        self._held: dict[str, Job] = {}
        self._lost: set[str] = set()
        self._lock = threading.Lock()
        # the database may be briefly unavailable: a failed beat is logged, the next one tries
        self._beats = Ticker(
            "fieldwise-leases", interval, self.renew_all, log=log, failure="lease renewal failed"
        )

    def hold(self, job: Job) -> None:
        with self._lock:
            self._held[job.id] = job
            self._lost.discard(job.id)

    def drop(self, job: Job) -> None:
        with self._lock:
            self._held.pop(job.id, None)
            self._lost.discard(job.id)

    def lost(self, job: Job) -> bool:
        with self._lock:
            return job.id in self._lost

    def renew_all(self) -> None:
        """One heartbeat: extend every held lease, noting those that were lost."""
        with self._lock:
            held = list(self._held.values())
        for job in held:
            with self.engine.begin() as conn:
                # A job released since the snapshot is done, not lost.
                kept = renew(conn, self.clock, job, self.duration) or finished_under(conn, job)
            if kept:
                continue
            with self._lock:
                if job.id not in self._held:
                    continue
                self._lost.add(job.id)
            log.warning("lost the lease of job %s (%s %s)", job.id, job.kind, job.target_id)

    def start(self) -> None:
        """Renew every ``interval`` seconds, the first beat one interval from now."""
        self._beats.start()

    def stop(self) -> None:
        self._beats.stop()
