"""Waiting for runs by webhook instead of polling.

While a run set runs with ``wait="webhooks"``, a :class:`~fieldwise.webhooks.Receiver` listens
(127.0.0.1 on a free port unless told otherwise) and a temporary endpoint on the service is
subscribed to ``processor.run.completed`` / ``processor.run.failed`` with the receiver's URL.
Deliveries are verified with the secret the service returned at registration, deduplicated by
event id (the receiver does both), and wake the task waiting for that run. The endpoint is
deleted when the run set ends, however it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from fieldwise._errors import ClientError, NotFoundError, RunnerError, UnprocessableError
from fieldwise.client import AsyncClient, ops
from fieldwise.webhooks import Receiver

log = logging.getLogger("fieldwise.runner")

TERMINAL_EVENTS = ("processor.run.completed", "processor.run.failed")


@dataclass(frozen=True)
class WebhookListen:
    """Where the runner's webhook receiver listens, and the URL the service is told to call.

    ``host``/``port`` are the bind address (port 0 picks a free one). ``url`` is needed only
    when the service must reach the receiver by another address than the bound one (a remote
    service, a tunnel, NAT); by default it is ``http://<host>:<port>/``.
    """

    host: str = "127.0.0.1"
    port: int = 0
    url: str | None = None

    def callback_url(self, bound_port: int) -> str:
        if self.url:
            return self.url
        host = self.host
        if host in ("", "0.0.0.0", "::"):
            # Bound to every interface: loopback is the one address certain to reach it.
            host = "127.0.0.1"
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{bound_port}/"


class RunEvents:
    """Terminal events by run id, handed from the receiver's thread to the event loop.

    ``received`` counts terminal events for this processor (each event id once).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, processor_id: str) -> None:
        self._loop = loop
        self._processor_id = processor_id
        # Runs whose event came before anyone waited (a fast run, a slow create answer).
        self._finished: set[str] = set()
        self._waiters: dict[str, asyncio.Event] = {}
        self.received = 0

    def deliver(self, event: dict[str, Any]) -> None:
        """Called by the receiver (in its thread) once per new, verified event."""
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits any more
            self._loop.call_soon_threadsafe(self._note, event)

    def _note(self, event: dict[str, Any]) -> None:
        data = event.get("data")
        if event.get("type") not in TERMINAL_EVENTS or not isinstance(data, dict):
            return
        run_id = data.get("run_id")
        # Other processors' runs (another user, another runner) share the event stream.
        if data.get("processor_id") != self._processor_id or not isinstance(run_id, str):
            return
        self.received += 1
        waiter = self._waiters.get(run_id)
        if waiter is not None:
            waiter.set()
        else:
            self._finished.add(run_id)

    async def wait(self, run_id: str, timeout: float) -> bool:
        """Wait up to ``timeout`` s for ``run_id``'s terminal event; True if it came.

        Each event wakes one wait: a second wait for the same run waits again.
        """
        if run_id in self._finished:
            self._finished.discard(run_id)
            return True
        waiter = self._waiters.setdefault(run_id, asyncio.Event())
        try:
            await asyncio.wait_for(waiter.wait(), timeout)
        except TimeoutError:
            return False
        finally:
            self._waiters.pop(run_id, None)
        return True

    def forget(self, run_id: str) -> None:
        self._finished.discard(run_id)
        self._waiters.pop(run_id, None)


@contextlib.asynccontextmanager
async def listening(
    aclient: AsyncClient,
    processor_id: str,
    listen: WebhookListen,
    *,
    description: str,
    cleanup_timeout_s: float = 10.0,
) -> AsyncIterator[RunEvents]:
    """Receive terminal run events of ``processor_id`` while the block runs."""
    events = RunEvents(asyncio.get_running_loop(), processor_id)
    try:
        # No secret yet: the service shows it only when the endpoint (which needs our URL)
        # is created. Nothing is delivered before that, and anything else is rejected.
        receiver = Receiver([], host=listen.host, port=listen.port, on_event=events.deliver)
    except OSError as exc:
        raise RunnerError(
            f"cannot listen for webhooks on {listen.host}:{listen.port}: {exc}"
        ) from exc
    receiver.start()
    try:
        url = listen.callback_url(receiver.port)
        endpoint_id, secret = await _register(aclient, url, description)
        receiver.secrets = [secret]
        try:
            yield events
        finally:
            await _unregister(aclient, endpoint_id, cleanup_timeout_s)
    finally:
        await asyncio.to_thread(receiver.stop)


async def _register(aclient: AsyncClient, url: str, description: str) -> tuple[str, str]:
    op = ops.create_webhook_endpoint(url, list(TERMINAL_EVENTS), description=description)
    try:
        endpoint = await aclient.call(op)
    except UnprocessableError as exc:
        raise RunnerError(
            f"the service refused the webhook URL {url}: {exc}. A service reaches an http:// "
            "receiver only on hosts its operator allows (FIELDWISE_WEBHOOK_ALLOW_HTTP); "
            "otherwise give a public https:// --webhook-url, or use --wait poll"
        ) from exc
    except NotFoundError as exc:
        raise RunnerError(
            f"the service has no webhook endpoints API ({exc}); use --wait poll"
        ) from exc
    except ClientError as exc:
        raise RunnerError(f"cannot register a webhook endpoint: {exc}") from exc
    if not endpoint.secret:
        await _unregister(aclient, endpoint.id, 10.0)
        raise RunnerError("the service did not return the new webhook endpoint's secret")
    return endpoint.id, endpoint.secret


async def _unregister(aclient: AsyncClient, endpoint_id: str, timeout: float) -> None:
    try:
        await asyncio.wait_for(
            aclient.call(ops.delete_webhook_endpoint(endpoint_id)), timeout=timeout
        )
    except NotFoundError:
        pass  # someone deleted it already
    except (ClientError, TimeoutError) as exc:
        # Never mask the run set's own outcome; the leftover endpoint is named so it can be
        # found and deleted by hand (its deliveries fail harmlessly meanwhile).
        log.warning("could not delete webhook endpoint %s: %s", endpoint_id, exc)
