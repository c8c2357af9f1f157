"""A job queued in this process wakes an idle worker once its transaction committed, instead
of waiting for the worker's next poll; a rolled-back one wakes nobody, and a job wakes only
the pools that take its kind. Checked by the order of events, never by elapsed time: the
pool's polls are pushed out of reach (an hour), so only a wake can start the job."""

from __future__ import annotations

import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import Connection, Engine

from fieldwise.service.app import MIGRATIONS
from fieldwise.service.clock import Clock, ManualClock
from fieldwise.service.http.waiting import Waiters
from fieldwise.service.jobs import Job, enqueue, finish_job, pool
from fieldwise.service.jobs.leases import LeaseKeeper
from fieldwise.service.jobs.signal import Wakes, job_signal
from fieldwise.service.store import make_engine, migrate

_GUARD = 60.0  # seconds: only guards against a hang, never races the work


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    engine = make_engine(f"sqlite:///{tmp_path / 'jobs.db'}")
    migrate(engine, MIGRATIONS)
    return engine


def test_only_a_committed_job_gives_a_wake_to_the_pools_of_its_kind(engine: Engine) -> None:
    clock = ManualClock()
    signal = job_signal(engine)
    assert job_signal(engine) is signal  # one per engine, its listeners installed once
    mine = signal.subscribe(("kind_a",), limit=2)
    other = signal.subscribe(("kind_b",), limit=2)

    with engine.connect() as conn:
        transaction = conn.begin()
        enqueue(conn, clock, "kind_a", "target_1")
        transaction.rollback()
    assert signal.given.get("kind_a", 0) == 0
    assert not mine.wait(0)

    with engine.begin() as conn:
        enqueue(conn, clock, "kind_a", "target_2")
        enqueue(conn, clock, "kind_a", "target_3")
        enqueue(conn, clock, "kind_a", "target_4")  # three jobs, but the pool has two threads
    assert signal.given["kind_a"] == 3
    assert mine.wait(0)
    assert mine.wait(0)
    assert not mine.wait(0)
    assert not other.wait(0)  # kind_b's pool was not woken for kind_a's jobs


class _Recorder:
    """A handler that notes each job it runs and finishes it."""

    def __init__(self, events: list[str], ran: threading.Event) -> None:
        self.events = events
        self.ran = ran

    def run(self, state: Any, job: Job) -> None:
        with state.engine.begin() as conn:
            finish_job(conn, state.clock, job.id)
        self.events.append(f"ran {job.target_id}")
        self.ran.set()

    def fail(self, state: Any, job: Job, reason: str, message: str) -> None:
        self.events.append(f"failed {job.target_id}: {reason} {message}")
        self.ran.set()

    def requeue(self, conn: Connection, clock: Clock, target_id: str) -> bool:
        return True


def test_an_idle_worker_runs_a_job_queued_here_without_waiting_for_its_poll(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The back-off never ends within the test: a job can only start because of a wake.
    monkeypatch.setattr(pool, "_IDLE_MIN", 3600.0)
    monkeypatch.setattr(pool, "_IDLE_MAX", 3600.0)
    events: list[str] = []
    idle, ran = threading.Event(), threading.Event()
    real_wait = Wakes.wait

    def noting_wait(self: Wakes, timeout: float) -> bool:
        events.append("idle")
        idle.set()
        return real_wait(self, timeout)

    monkeypatch.setattr(Wakes, "wait", noting_wait)
    clock = ManualClock()
    keeper = LeaseKeeper(engine, clock, duration=30, interval=3600)
    state = SimpleNamespace(
        engine=engine,
        clock=clock,
        leases=keeper,
        waiters=Waiters(),
        settings=SimpleNamespace(workers=1),
    )
    workers = pool.WorkerPool(state, {"kind_a": _Recorder(events, ran)})  # type: ignore[arg-type]
    workers.start()
    try:
        assert idle.wait(_GUARD)  # the worker found nothing and waits (an hour, unwoken)
        with engine.begin() as conn:
            enqueue(conn, clock, "kind_a", "target_1")
            events.append("committed")
        assert ran.wait(_GUARD)
    finally:
        workers.stop()
    assert events[:3] == ["idle", "committed", "ran target_1"]
