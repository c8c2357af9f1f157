"""Holding a request until background work is done, woken by a notification, not a poll.

These endpoints answer once work reaches a terminal state: ``GET …/runs/{run_id}?wait=S``
and ``POST /processors/{id}/runs?wait=S``, ``POST /extract/path?wait_seconds=S`` and
``POST /workflows/{id}/batch-runs`` with ``async: false``. Each holds its request on the
event loop (no thread) in :func:`wait_terminal` until the row it reads is terminal or time
is up.

Whoever moves work to a terminal state calls :meth:`Waiters.notify` (the service's one
registry, ``state.waiters``) with its id after the change committed (the worker pool after
every job, the cancel and delete routes); a waiter registered
for that id, and every waiter registered for no id in particular (a batch, made of many runs),
wakes and reads its row again. Changes made where no notification reaches this process
(another process on PostgreSQL, lease recovery) are still seen: a waiter reads the row every
:data:`RECHECK_SECONDS` regardless. A notification is only ever a hint to read again, never
the answer itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from fastapi.concurrency import run_in_threadpool

from fieldwise.service.run_states import TERMINAL

__all__ = ["MAX_WAIT_SECONDS", "RECHECK_SECONDS", "Waiters", "hold", "wait_terminal"]

#: The longest a run's request may ask to be held (a batch has its own bound).
MAX_WAIT_SECONDS = 30.0
#: How often a held request reads its row anyway (changes made out of this process's sight).
RECHECK_SECONDS = 0.25
#: The least time between two reads of a waiter for no id in particular (every notification
#: wakes it, and a busy service sends many).
_MIN_READ_GAP_SECONDS = 0.05

_Entry = tuple[asyncio.AbstractEventLoop, asyncio.Event]


class Waiters:
    """The requests held on work of one service, by the id they wait for (None: any)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str | None, set[_Entry]] = {}

    def notify(self, target_id: str) -> None:
        """Wake the requests waiting for ``target_id``, and those waiting for anything (call
        after the change committed; from any thread)."""
        with self._lock:
            entries = [*self._waiting.get(target_id, ()), *self._waiting.get(None, ())]
        for loop, event in entries:
            with contextlib.suppress(RuntimeError):  # that loop already closed: nobody waits
                loop.call_soon_threadsafe(event.set)

    @contextlib.contextmanager
    def watching(self, key: str | None) -> Iterator[asyncio.Event]:
        """An event set by every :meth:`notify` of ``key`` while the block runs."""
        entry = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._waiting.setdefault(key, set()).add(entry)
        try:
            yield entry[1]
        finally:
            with self._lock:
                entries = self._waiting.get(key)
                if entries is not None:
                    entries.discard(entry)
                    if not entries:
                        del self._waiting[key]


async def wait_terminal(
    waiters: Waiters, load: Callable[[], Any], wait_seconds: float, *, key: str | None = None
) -> Any:
    """Read ``load()`` (run in a thread; a row with a ``status``, or None once gone) until it
    is terminal or gone, or ``wait_seconds`` passed; return the last row read.

    ``key``: the id whose :meth:`Waiters.notify` wakes this waiter; None wakes it on every
    notification (work made of many parts).
    """
    # Registered before the first read, so work finishing between that read and the wait
    # still wakes it.
    with waiters.watching(key) as changed:
        return await hold(changed, load, wait_seconds, every=key is None)


async def hold(
    changed: asyncio.Event,
    load: Callable[[], Any],
    wait_seconds: float,
    *,
    every: bool = False,
    first: Any = None,
) -> Any:
    """:func:`wait_terminal` for a caller already inside :meth:`Waiters.watching` (``changed``
    is its event; ``every``: watching no id in particular).

    ``first``: the row as the caller read it after it began watching (a create holding its
    new run: the watch began before the insert, so no notification can fall between that
    read and the wait); it is taken as the first read instead of reading again.
    """
    deadline = time.monotonic() + wait_seconds
    row = first
    while True:
        if row is None:
            row = await run_in_threadpool(load)
        left = deadline - time.monotonic()
        if row is None or row.status in TERMINAL or left <= 0:
            return row
        read_at = time.monotonic()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), min(left, RECHECK_SECONDS))
        changed.clear()
        if every:
            gap = read_at + _MIN_READ_GAP_SECONDS - time.monotonic()
            await asyncio.sleep(min(max(0.0, gap), max(0.0, deadline - time.monotonic())))
        row = None
