"""One background loop: call a function every ``interval`` seconds in a daemon thread.

What the service's periodic chores (the lease heartbeat, the retention sweep) share: start,
stop promptly (the wait between ticks is the stop event's, so ``stop`` never waits out an
interval), and survive a failing tick (it is logged; the next tick comes at its time), since
a database that is briefly locked or unavailable must not end a chore for the process's life.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

__all__ = ["Ticker"]

#: how long ``stop`` waits for a tick in progress before leaving the daemon thread behind
STOP_TIMEOUT_SECONDS = 30.0


class Ticker:
    """Calls ``tick`` every ``interval`` seconds from :meth:`start` until :meth:`stop`; first
    at start when ``at_start``, else after one interval. A tick that raises is logged on
    ``log`` with ``failure`` as the message, and the loop goes on."""

    def __init__(
        self,
        name: str,
        interval: float,
        tick: Callable[[], object],
        *,
        log: logging.Logger,
        failure: str,
        at_start: bool = False,
    ) -> None:
        self.name = name
        self.interval = interval
        self._tick = tick
        self._log = log
        self._failure = failure
        self._at_start = at_start
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def stopping(self) -> bool:
        """True once :meth:`stop` was called: a long tick checks it between its steps."""
        return self._stop.is_set()

    def start(self) -> None:
        """Start the loop (again after a :meth:`stop`)."""
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, name=self.name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the loop: now between ticks, or when the tick in progress returns."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=STOP_TIMEOUT_SECONDS)

    def _loop(self) -> None:
        if not self._at_start and self._stop.wait(self.interval):
            return
        while not self._stop.is_set():
            try:
                self._tick()
            except Exception:  # logged, not fatal: the next tick may find the database back
                self._log.exception(self._failure)
            if self._stop.wait(self.interval):
                return
