"""The one durable-run lifecycle, move by move, on a real database under a manual clock: of
two racing callers exactly one wins, and a worker whose lease was taken changes nothing."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine

from fieldwise.service.app import MIGRATIONS
from fieldwise.service.clock import ManualClock
from fieldwise.service.jobs import claim, held
from fieldwise.service.jobs.queue import expired, renew, requeue, take_over
from fieldwise.service.resources.runs.lifecycle import JOB_KIND, RUNS
from fieldwise.service.store import make_engine, migrate

LEASE = timedelta(seconds=30)
VALUES = {"input_path": "file_x", "input_file_id": "file_x", "params": {}, "base_url": "http://h"}


@pytest.fixture(params=[True, False], ids=["returning", "read-back"])
def engine(tmp_path: Path, request: pytest.FixtureRequest) -> Engine:
    engine = make_engine(f"sqlite:///{tmp_path / 'jobs.db'}")
    migrate(engine, MIGRATIONS)
    # without RETURNING (an SQLite older than 3.35) every move reads its row back instead
    engine.dialect.update_returning = request.param
    return engine


def _queued_run(engine: Engine, clock: ManualClock) -> str:
    with engine.begin() as conn:
        run_id, _job = RUNS.create(conn, clock, VALUES)
    return run_id


def test_one_claimant_wins_and_a_cancel_beats_a_late_finish(engine: Engine) -> None:
    clock = ManualClock()
    run_id = _queued_run(engine, clock)
    job = claim(engine, clock, "w1", (JOB_KIND,), lease=LEASE)
    assert job is not None
    assert job.target_id == run_id
    assert claim(engine, clock, "w2", (JOB_KIND,), lease=LEASE) is None
    assert RUNS.start(engine, clock, job) is not None
    with engine.begin() as conn:
        assert RUNS.cancel(conn, clock, run_id) is not None
    with engine.begin() as conn:
        assert RUNS.finish(conn, clock, run_id, "succeeded", job=job) is None
        assert RUNS.cancel(conn, clock, run_id) is None
        row = RUNS.get(conn, run_id)
    assert row is not None
    assert row.status == "canceled"


def test_a_lost_lease_is_recovered_once_and_its_worker_cannot_finish(engine: Engine) -> None:
    clock = ManualClock()
    run_id = _queued_run(engine, clock)
    first = claim(engine, clock, "w1", (JOB_KIND,), lease=LEASE)
    assert first is not None
    assert RUNS.start(engine, clock, first) is not None
    with engine.connect() as conn:
        assert expired(conn, clock.now(), (JOB_KIND,)) == []
    with engine.begin() as conn:  # a heartbeat keeps it alive past the first expiry
        clock.advance(timedelta(seconds=20))
        assert renew(conn, clock, first, LEASE)
    clock.advance(timedelta(seconds=20))
    with engine.connect() as conn:
        assert expired(conn, clock.now(), (JOB_KIND,)) == []

    clock.advance(timedelta(seconds=11))  # no heartbeat for longer than the lease
    with engine.connect() as conn:
        [lost] = expired(conn, clock.now(), (JOB_KIND,))
    with engine.begin() as conn:
        mine = take_over(conn, clock, lost, "w2", lease=LEASE)
        assert take_over(conn, clock, lost, "w3", lease=LEASE) is None  # one recoverer wins
        assert mine is not None
        assert RUNS.requeue(conn, clock, run_id)
        assert requeue(conn, mine)
    second = claim(engine, clock, "w2", (JOB_KIND,), lease=LEASE)
    assert second is not None
    assert second.attempts == 2
    assert RUNS.start(engine, clock, second) is not None

    with engine.begin() as conn:  # the first worker comes back: nothing it does counts
        assert not held(conn, first)
        assert not renew(conn, clock, first, LEASE)
        assert RUNS.finish(conn, clock, run_id, "succeeded", job=first) is None
        assert RUNS.fail(conn, clock, run_id, "x", "y", job=first) is None
    with engine.begin() as conn:
        row = RUNS.finish(conn, clock, run_id, "succeeded", job=second)
    assert row is not None
    assert (row.status, row.attempts) == ("succeeded", 2)
