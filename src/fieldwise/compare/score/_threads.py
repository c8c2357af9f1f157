"""Independent pieces of work spread over the cores with threads: numpy and Arrow release
the GIL in their kernels, so columns (or blocks of documents) run side by side. Results come
back in the order of the inputs, whichever thread finished first, so nothing depends on it."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar, cast

__all__ = ["cores", "thread_map"]

T = TypeVar("T")
R = TypeVar("R")


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def thread_map(fn: Callable[[T], R], items: Sequence[T], *, parallel: bool) -> list[R]:
    """``[fn(i) for i in items]``, on a thread per core when ``parallel`` (worth it only for
    large pieces: starting the threads costs about a millisecond). The calling thread is one
    of the workers: one thread fewer to start, and its allocations reuse the memory it
    already holds (a new thread's allocator arena starts from fresh pages, each a page
    fault). Each thread takes the next item until none is left; when ``fn`` raises, no
    more items are started and the exception of the first failing item is raised."""
    workers = min(cores(), len(items)) if parallel else 1
    if workers < 2:
        return [fn(i) for i in items]
    results: list[R | None] = [None] * len(items)
    errors: dict[int, BaseException] = {}
    lock = threading.Lock()
    taken = [0]

    def work() -> None:
        while True:
            with lock:
                k = taken[0]
                if k >= len(items) or errors:
                    return
                taken[0] = k + 1
            try:
                results[k] = fn(items[k])
            except BaseException as exc:  # handed to the caller below
                with lock:
                    errors[k] = exc

    helpers = [threading.Thread(target=work, daemon=True) for _ in range(workers - 1)]
    for helper in helpers:
        helper.start()
    try:
        work()
    finally:
        for helper in helpers:
            helper.join()
    if errors:
        raise errors[min(errors)]
    return cast("list[R]", results)  # every slot filled: no item failed
