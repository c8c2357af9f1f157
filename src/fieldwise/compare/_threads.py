"""Independent pieces of work spread over the cores with threads: numpy and Arrow release
the GIL in their kernels, so columns (or blocks of documents) run side by side. Results come
back in the order of the inputs, whichever thread finished first, so nothing depends on it."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TypeVar

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
    large pieces: starting the threads costs about a millisecond)."""
    workers = min(cores(), len(items)) if parallel else 1
    if workers < 2:
        return [fn(i) for i in items]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(fn, items))
