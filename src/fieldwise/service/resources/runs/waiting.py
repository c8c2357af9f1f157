"""Holding ``GET …/runs/{run_id}?wait=S`` until the run is terminal, without polling it.

A client that waits for many runs (the runner, ``fieldwise run``) otherwise asks again and
again, each question an HTTP request and a database read on the service's one interpreter,
and learns of a finished run only at its next question. With ``wait``, the request stays open
(on the event loop, holding no thread) until the run ends or ``wait`` seconds pass.

The worker that finishes a run calls :func:`notify` after its transaction committed; a waiter
registered for that run wakes and reads the row again. Runs finished where no notification
reaches this process (another process on PostgreSQL, recovery, a delete) are still seen: a
waiter reads the row every :data:`RECHECK_SECONDS` regardless. A notification is only ever a
hint to read again, never the answer itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from fieldwise.service.jobs.durable import TERMINAL

__all__ = ["MAX_WAIT_SECONDS", "RECHECK_SECONDS", "notify", "wait_finished"]

#: The longest a request may ask to be held.
MAX_WAIT_SECONDS = 30.0
#: How often a held request reads the run anyway (changes made out of this process's sight).
RECHECK_SECONDS = 0.25

_lock = threading.Lock()
# run id -> the events of the requests waiting for it, with the loop each belongs to; run ids
# are unique, so one registry serves every service in the process.
_waiting: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}


def notify(run_id: str) -> None:
    """Wake the requests waiting for ``run_id`` (call after the change committed; any thread)."""
    with _lock:
        entries = list(_waiting.get(run_id, ()))
    for loop, event in entries:
        with contextlib.suppress(RuntimeError):  # that loop already closed: nobody waits
            loop.call_soon_threadsafe(event.set)


@contextlib.contextmanager
def _watching(run_id: str) -> Iterator[asyncio.Event]:
    entry = (asyncio.get_running_loop(), asyncio.Event())
    with _lock:
        _waiting.setdefault(run_id, set()).add(entry)
    try:
        yield entry[1]
    finally:
        with _lock:
            entries = _waiting.get(run_id)
            if entries is not None:
                entries.discard(entry)
                if not entries:
                    del _waiting[run_id]


async def wait_finished(
    run_id: str, load: Callable[[], Awaitable[Any]], wait_seconds: float
) -> Any:
    """``await load()`` (the run's row, or None once gone) until the row is terminal or gone,
    or ``wait_seconds`` passed; return the last row read."""
    deadline = time.monotonic() + min(wait_seconds, MAX_WAIT_SECONDS)
    # Registered before the first read, so a run finishing between that read and the wait
    # still wakes it.
    with _watching(run_id) as changed:
        while True:
            row = await load()
            left = deadline - time.monotonic()
            if row is None or row.status in TERMINAL or left <= 0:
                return row
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(left, RECHECK_SECONDS))
            changed.clear()
