"""The dispatcher: one synchronous step (:func:`run_due`) and the thread that repeats it.

``run_due`` fans new events out into deliveries, sends every delivery that is due (claimed
atomically, a few in parallel), and e-mails the notifications of dead ones. Tests call it after
moving a :class:`~fieldwise.service.clock.ManualClock`; in production :class:`WebhookWorker`
calls it every ``poll_interval`` seconds.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta

from fieldwise._signature import sign
from fieldwise.service.events.webhooks.delivery import DEFAULT_TIMEOUT, AttemptResult, post_signed
from fieldwise.service.events.webhooks.notify import send_pending
from fieldwise.service.events.webhooks.store import (
    claim,
    dispatch_events,
    due_ids,
    kill,
    record_attempt,
    signing_target,
)
from fieldwise.service.state import ServiceState

log = logging.getLogger("fieldwise.service.webhooks")

#: ``settings.extra`` keys: seconds between background passes (0 or None: no thread), and
#: the per-attempt timeout.
POLL_INTERVAL_KEY = "webhooks.poll_interval"
TIMEOUT_KEY = "webhooks.timeout"
DEFAULT_POLL_INTERVAL = 1.0
BATCH = 100

# Set by :func:`nudge`: every dispatcher thread of the process makes a pass now rather than at
# its next poll (a delivery was queued that someone is waiting for, such as a test send).
_NUDGED = threading.Event()


def nudge() -> None:
    """Ask the dispatcher threads of this process for a pass now (they poll anyway)."""
    _NUDGED.set()


@dataclass(frozen=True)
class DueRun:
    """What one :func:`run_due` pass did."""

    dispatched: int
    attempted: int
    delivered: int
    dead: int
    emailed: int


def attempt(
    state: ServiceState, delivery_id: str, *, trigger: str, timeout: float | None = None
) -> str | None:
    """Claim and send one delivery now; return its new state, or None if it was not claimed.

    ``trigger="automatic"`` only sends a delivery that is due; ``"manual"`` sends it from any
    state (the retry route).
    """
    timeout = timeout if timeout is not None else configured_timeout(state)
    clock = state.clock
    with state.engine.begin() as conn:
        started = clock.now()
        # The claim is a lease: a sender that dies or freezes frees it this long after.
        lease = timedelta(seconds=state.settings.lease_seconds + timeout)
        row = claim(conn, delivery_id, started, lease, scheduled=trigger == "automatic")
        if row is None:
            return None
        target = signing_target(conn, row, started)
        if target is None:
            kill(conn, row, "endpoint deleted", started)
            return "dead"
    url, keys = target
    body = row.body.encode("utf-8")
    signature = sign(body, keys, int(started.timestamp()))
    result: AttemptResult = post_signed(
        url,
        body,
        signature,
        event_id=row.event_id,
        event_type=row.event_type,
        allow_http=tuple(state.settings.webhook_allow_http),
        timeout=timeout,
    )
    with state.engine.begin() as conn:
        return record_attempt(
            conn,
            row,
            result,
            trigger=trigger,
            url=url,
            started=started,
            now=clock.now(),
            settings=state.settings,
        )


def run_due(state: ServiceState, *, timeout: float | None = None, parallel: int = 8) -> DueRun:
    """One pass: dispatch new events, send what is due, e-mail dead-letter notifications."""
    with state.engine.begin() as conn:
        dispatched = dispatch_events(conn, state.clock.now())
    with state.engine.connect() as conn:
        ids = due_ids(conn, state.clock.now(), BATCH)
    outcomes: list[str | None] = []
    if ids:
        with ThreadPoolExecutor(max_workers=max(1, min(parallel, len(ids)))) as pool:
            outcomes = list(
                pool.map(lambda i: attempt(state, i, trigger="automatic", timeout=timeout), ids)
            )
    emailed = send_pending(state.engine, state.settings, state.clock.now())
    return DueRun(
        dispatched=dispatched,
        attempted=sum(1 for o in outcomes if o is not None),
        delivered=outcomes.count("delivered"),
        dead=outcomes.count("dead"),
        emailed=emailed,
    )


def configured_timeout(state: ServiceState) -> float:
    return float(state.settings.extra.get(TIMEOUT_KEY, DEFAULT_TIMEOUT))


class WebhookWorker:
    """Calls :func:`run_due` every ``poll_interval`` seconds in a background thread."""

    def __init__(self, state: ServiceState, poll_interval: float | None) -> None:
        self.state = state
        self.poll_interval = poll_interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if not self.poll_interval:
            return
        self._thread = threading.Thread(target=self._loop, name="fieldwise-webhooks", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        interval = float(self.poll_interval or DEFAULT_POLL_INTERVAL)
        while not self._stop.is_set():
            _NUDGED.clear()  # a nudge that comes during the pass makes the next one start at once
            try:
                run_due(self.state)
            except Exception:  # keep the loop alive; the next pass retries
                log.exception("webhook dispatch pass failed")
            _NUDGED.wait(interval)

    def stop(self) -> None:
        self._stop.set()
        _NUDGED.set()
        if self._thread is not None:
            self._thread.join(DEFAULT_TIMEOUT + 5)


def webhook_worker(state: ServiceState) -> WebhookWorker:
    """The factory in ``fieldwise.service.app.BACKGROUND``."""
    interval = state.settings.extra.get(POLL_INTERVAL_KEY, DEFAULT_POLL_INTERVAL)
    return WebhookWorker(state, float(interval) if interval else None)
