"""``hold``: the wait of a held request whose caller began watching first (a create holding
its own new run), taking the row it read as the first read."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from fieldwise.service.http import waiting
from fieldwise.service.http.waiting import Waiters, hold, wait_terminal


def _row(status: str) -> Any:
    return SimpleNamespace(status=status)


def test_a_first_row_is_the_first_read() -> None:
    reads: list[str] = []

    def load() -> Any:
        reads.append("read")
        return _row("succeeded")

    async def main() -> tuple[Any, Any]:
        waiters = Waiters()
        with waiters.watching("run_1") as changed:
            done = await hold(changed, load, 5.0, first=_row("failed"))
        with waiters.watching("run_1") as changed:
            timed_out = await hold(changed, load, 0.0, first=_row("queued"))
        return done, timed_out

    done, timed_out = asyncio.run(main())
    assert done.status == "failed"  # terminal already: answered with no read
    assert timed_out.status == "queued"  # no time left: answered as it was
    assert reads == []


def test_an_end_notified_before_the_hold_began_is_not_missed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The run ends (and is notified) after the create read it but before the hold waits:
    watching began before the insert, so the hold is woken at once. With no periodic read
    to fall back on (a minute apart here) and 30 s to wait, a missed notification would
    hold it past the 10 s guard."""
    monkeypatch.setattr(waiting, "RECHECK_SECONDS", 60.0)
    status = {"run_1": "queued"}

    async def main() -> Any:
        waiters = Waiters()
        with waiters.watching("run_1") as changed:
            first = _row(status["run_1"])  # the create's read
            status["run_1"] = "succeeded"  # a worker finishes the run...
            waiters.notify("run_1")  # ...and notifies, before the hold waits
            await asyncio.sleep(0)  # the loop delivers the notification
            held = hold(changed, lambda: _row(status["run_1"]), 30.0, first=first)
            return await asyncio.wait_for(held, 10.0)

    assert asyncio.run(main()).status == "succeeded"


def test_wait_terminal_reads_first_and_holds_until_notified() -> None:
    status = {"run_2": "in_progress"}
    reads: list[str] = []

    def load() -> Any:
        reads.append(status["run_2"])
        return _row(status["run_2"])

    async def main() -> Any:
        waiters = Waiters()

        async def finish() -> None:
            await asyncio.sleep(0.05)
            status["run_2"] = "succeeded"
            waiters.notify("run_2")

        task = asyncio.create_task(finish())
        row = await wait_terminal(waiters, load, 5.0, key="run_2")
        await task
        return row

    assert asyncio.run(main()).status == "succeeded"
    assert reads[0] == "in_progress"
    assert reads[-1] == "succeeded"
