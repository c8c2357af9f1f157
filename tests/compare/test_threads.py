"""thread_map: the results of ``[fn(i) for i in items]`` in input order, whichever thread ran
each item; the calling thread is one of the workers; the first failing item's exception."""

from __future__ import annotations

import threading
import time

import pytest

import fieldwise.compare.score._threads as threads
from fieldwise.compare.score._threads import thread_map


@pytest.fixture(autouse=True)
def _two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    # the same split on any machine (a one-core runner would otherwise run inline)
    monkeypatch.setattr(threads, "cores", lambda: 2)


def test_results_come_back_in_input_order() -> None:
    def slow_first(i: int) -> int:
        time.sleep(0.02 if i == 0 else 0.0)  # item 0 finishes last
        return i * i

    items = list(range(50))
    assert thread_map(slow_first, items, parallel=True) == [i * i for i in items]
    assert thread_map(slow_first, items, parallel=False) == [i * i for i in items]
    assert thread_map(slow_first, [], parallel=True) == []


def test_the_calling_thread_is_one_of_the_workers() -> None:
    seen: set[int] = set()
    lock = threading.Lock()

    def record(i: int) -> int:
        time.sleep(0.005)  # long enough for the helper to take items too
        with lock:
            seen.add(threading.get_ident())
        return i

    assert thread_map(record, list(range(20)), parallel=True) == list(range(20))
    assert threading.get_ident() in seen
    assert len(seen) == 2


def test_the_first_failing_items_exception_is_raised() -> None:
    def fail_odd(i: int) -> int:
        if i % 2:
            raise ValueError(f"item {i}")
        return i

    with pytest.raises(ValueError, match=r"item 1$"):
        thread_map(fail_odd, list(range(10)), parallel=True)
    with pytest.raises(ValueError, match=r"item 1$"):
        thread_map(fail_odd, list(range(10)), parallel=False)
