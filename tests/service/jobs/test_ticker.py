"""The service's one background loop (``jobs/ticker.py``), as the lease heartbeat and the
retention sweep use it: it stops without waiting out its interval, a tick that raises is
logged and the loop goes on, and the first tick comes at start only when asked."""

from __future__ import annotations

import logging
import threading

import pytest

from fieldwise.service.jobs.ticker import Ticker

LOG = logging.getLogger("tests.ticker")
#: long enough that a test passing through an interval would hang, not pass by luck
HOUR = 3600.0
#: how long a test waits for something the loop must do soon (a failure, not a timing)
PATIENCE = 30.0


def _alive(name: str) -> bool:
    return any(t.name == name and t.is_alive() for t in threading.enumerate())


def test_stop_ends_the_loop_between_ticks_without_waiting_out_the_interval() -> None:
    ticks: list[int] = []
    ticker = Ticker("ticker-idle", HOUR, lambda: ticks.append(1), log=LOG, failure="tick failed")
    ticker.start()
    assert _alive("ticker-idle")
    ticker.stop()
    # stop joins for up to 30 s: a loop asleep for its hour would still be alive here
    assert not _alive("ticker-idle")
    assert ticks == []  # not at start unless asked


def test_the_first_tick_comes_at_start_when_asked() -> None:
    ticked = threading.Event()
    ticker = Ticker("ticker-eager", HOUR, ticked.set, log=LOG, failure="x", at_start=True)
    ticker.start()
    try:
        assert ticked.wait(PATIENCE)
    finally:
        ticker.stop()
    assert not _alive("ticker-eager")


def test_a_failing_tick_is_logged_and_the_loop_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    calls: list[int] = []
    again = threading.Event()

    def tick() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("database is locked")
        again.set()

    ticker = Ticker("ticker-flaky", 0.01, tick, log=LOG, failure="chore failed", at_start=True)
    with caplog.at_level(logging.ERROR, logger=LOG.name):
        ticker.start()
        try:
            assert again.wait(PATIENCE)
        finally:
            ticker.stop()
    failures = [r for r in caplog.records if r.getMessage() == "chore failed"]
    assert len(failures) == 1
    assert failures[0].exc_info is not None
    assert str(failures[0].exc_info[1]) == "database is locked"
    assert len(calls) >= 2


def test_a_long_tick_sees_the_stop_and_the_ticker_starts_again() -> None:
    started = threading.Event()
    rounds: list[int] = []
    holder: list[Ticker] = []

    def long_tick() -> None:
        started.set()
        rounds.append(1)
        while not holder[0].stopping:  # a sweep of many batches checks between them
            threading.Event().wait(0.01)

    ticker = Ticker("ticker-long", HOUR, long_tick, log=LOG, failure="x", at_start=True)
    holder.append(ticker)
    for expected in (1, 2):
        started.clear()
        ticker.start()
        assert started.wait(PATIENCE)
        ticker.stop()
        assert not _alive("ticker-long")
        assert len(rounds) == expected
