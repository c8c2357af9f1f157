"""Waking this process's idle workers when a job is queued here, instead of at their next poll.

:func:`~fieldwise.service.jobs.queue.add_job` counts the queued jobs, by kind, on the
connection that inserts them; once that transaction committed and its connection went back to
the pool, the engine's :class:`JobSignal` wakes as many idle workers of the pools taking that
kind. A rolled-back transaction wakes nobody. The signal is only ever a hint to claim now:
jobs queued by other processes (on PostgreSQL) or put back by recovery are still found by
the workers' own back-off polls.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

from sqlalchemy import Connection, Engine, event

__all__ = ["JobSignal", "Wakes", "count_queued", "job_signal"]

_QUEUED = "fieldwise.jobs.queued"  # queued in the open transaction
_COMMITTED = "fieldwise.jobs.committed"  # queued and committed, the connection not yet back


class Wakes:
    """One worker pool's wakes: :meth:`give` adds up to ``limit`` (its threads), :meth:`wait`
    takes one or times out."""

    def __init__(self, kinds: tuple[str, ...], limit: int) -> None:
        self.kinds = kinds
        self.limit = max(1, limit)
        self._cond = threading.Condition()
        self._pending = 0

    def give(self, n: int) -> None:
        with self._cond:
            self._pending = min(self.limit, self._pending + n)
            self._cond.notify(n)

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a wake; True when one was taken."""
        with self._cond:
            if not self._cond.wait_for(lambda: self._pending > 0, timeout):
                return False
            self._pending -= 1
            return True


class JobSignal:
    """The pools of one engine waiting for jobs, by kind; :meth:`wake` wakes those of a kind."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_kind: dict[str, list[Wakes]] = {}
        #: Wakes given per kind (tests read it; it only grows).
        self.given: dict[str, int] = {}

    def subscribe(self, kinds: tuple[str, ...], limit: int) -> Wakes:
        wakes = Wakes(kinds, limit)
        with self._lock:
            for kind in kinds:
                self._by_kind.setdefault(kind, []).append(wakes)
        return wakes

    def unsubscribe(self, wakes: Wakes) -> None:
        with self._lock:
            for kind in wakes.kinds:
                subscribed = self._by_kind.get(kind, [])
                if wakes in subscribed:
                    subscribed.remove(wakes)

    def wake(self, queued: dict[str, int]) -> None:
        """``queued``: jobs committed, by kind."""
        with self._lock:
            targets = [(w, n) for kind, n in queued.items() for w in self._by_kind.get(kind, [])]
            for kind, n in queued.items():
                self.given[kind] = self.given.get(kind, 0) + n
        for wakes, n in targets:
            wakes.give(n)


_signals: weakref.WeakKeyDictionary[Engine, JobSignal] = weakref.WeakKeyDictionary()
_guard = threading.Lock()


def job_signal(engine: Engine) -> JobSignal:
    """The signal of ``engine``'s queued jobs (made, and its listeners installed, once)."""
    with _guard:
        signal = _signals.get(engine)
        if signal is None:
            signal = _signals[engine] = JobSignal()
            _listen(engine, signal)
        return signal


def count_queued(conn: Connection, kind: str) -> None:
    """Note a job of ``kind`` queued in ``conn``'s open transaction."""
    queued = conn.info.setdefault(_QUEUED, {})
    queued[kind] = queued.get(kind, 0) + 1


def _listen(engine: Engine, signal: JobSignal) -> None:
    def committed(conn: Connection) -> None:
        # Fired before the database commits: the wake waits for the connection's return.
        queued = conn.info.pop(_QUEUED, None)
        if queued:
            committed = conn.info.setdefault(_COMMITTED, {})
            for kind, n in queued.items():
                committed[kind] = committed.get(kind, 0) + n

    def rolled_back(conn: Connection) -> None:
        conn.info.pop(_QUEUED, None)

    def checked_in(_dbapi_connection: Any, record: Any) -> None:
        committed = record.info.pop(_COMMITTED, None) if record is not None else None
        if committed:
            signal.wake(committed)

    event.listen(engine, "commit", committed)
    event.listen(engine, "rollback", rolled_back)
    event.listen(engine, "checkin", checked_in)
