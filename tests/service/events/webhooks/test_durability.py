"""Durability and limits: restarts, concurrent dispatchers, timeouts, redirects, no SMTP."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import timedelta

from fieldwise.client import ops
from fieldwise.service.clock import ManualClock
from fieldwise.service.events.webhooks import MAX_ATTEMPTS, RETRY_DELAYS, run_due
from fieldwise.service.events.webhooks.delivery import DEFAULT_TIMEOUT
from tests.service.events.webhooks.conftest import START, WebhookService
from tests.service.events.webhooks.test_delivery import emit, register
from tests.webhooks.receivers import ScriptedReceiver

Receivers = Callable[..., ScriptedReceiver]
Start = Callable[..., WebhookService]


def test_schedule_is_nine_retries_within_a_day() -> None:
    assert MAX_ATTEMPTS == 10
    assert [d.total_seconds() / 60 for d in RETRY_DELAYS] == [
        1,
        5,
        15,
        30,
        60,
        120,
        240,
        480,
        480,
    ]
    assert sum(RETRY_DELAYS, timedelta()) < timedelta(hours=24)
    assert DEFAULT_TIMEOUT == 10.0


def test_pending_and_retrying_deliveries_survive_a_restart(
    start_webhooks: Start, receivers: Receivers
) -> None:
    flaky, later = receivers(statuses=[500, 200]), receivers()
    first = start_webhooks()
    flaky_id, _ = register(first, flaky.url)
    later_id, _ = register(first, later.url, ["evaluation.completed"])
    emit(first)
    first.run_due()  # flaky fails once → retrying
    emit(first, "evaluation.completed")  # recorded, never dispatched before the "crash"
    first.client.close()
    first.running.stop()

    clock = ManualClock(START + timedelta(minutes=1))
    second = start_webhooks(clock_=clock)
    outcome = second.run_due()

    assert (outcome.dispatched, outcome.delivered) == (1, 2)
    assert [r.json["type"] for r in later.requests] == ["evaluation.completed"]
    assert len(flaky.requests) == 2
    assert flaky.requests[0].json["id"] == flaky.requests[1].json["id"]
    for endpoint_id in (flaky_id, later_id):
        [delivery] = second.client.call(ops.list_webhook_deliveries(endpoint_id)).data
        assert delivery.state == "delivered"
    assert second.run_due().attempted == 0


def test_concurrent_dispatchers_send_each_delivery_once(
    hooks: WebhookService, receivers: Receivers
) -> None:
    receiver = receivers(hang=0.2)  # slow enough for the passes to overlap
    register(hooks, receiver.url)
    for _ in range(5):
        emit(hooks)
    barrier = threading.Barrier(3)

    def run() -> None:
        barrier.wait()
        run_due(hooks.state)

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ids = [r.json["id"] for r in receiver.requests]
    assert len(ids) == 5 == len(set(ids))
    deliveries = hooks.client.call(ops.list_webhook_deliveries()).data
    assert [len(d.attempts) for d in deliveries] == [1] * 5


def test_hanging_receiver_is_cut_at_the_timeout(
    hooks: WebhookService, receivers: Receivers
) -> None:
    receiver = receivers(hang=30)
    endpoint_id, _ = register(hooks, receiver.url)
    emit(hooks)
    started = time.monotonic()
    hooks.run_due(timeout=0.5)
    took = time.monotonic() - started
    # Cut at the 0.5 s timeout, not after the receiver's 30 s hang; the upper bound is far
    # from both so a loaded machine cannot fail it.
    assert 0.4 < took < 25
    [delivery] = hooks.client.call(ops.list_webhook_deliveries(endpoint_id)).data
    assert delivery.state == "retrying"
    attempt = delivery.attempts[0]
    assert attempt.error == "timeout: no answer within 0.5 s"
    assert attempt.status_code is None
    assert 400 <= attempt.latency_ms < 25_000


def test_redirects_are_not_followed(hooks: WebhookService, receivers: Receivers) -> None:
    target = receivers()
    redirecting = receivers(statuses=[307], location=target.url)
    endpoint_id, _ = register(hooks, redirecting.url)
    emit(hooks)
    hooks.run_due()
    [delivery] = hooks.client.call(ops.list_webhook_deliveries(endpoint_id)).data
    assert delivery.state == "retrying"
    assert delivery.attempts[0].status_code == 307
    assert delivery.attempts[0].error == f"redirect 307 to {target.url!r} not followed"
    assert target.requests == []


def test_without_smtp_the_dead_letter_is_recorded_and_logged(
    hooks: WebhookService, receivers: Receivers, caplog: object
) -> None:
    import logging

    import pytest

    assert isinstance(caplog, pytest.LogCaptureFixture)
    receiver = receivers(statuses=[500])
    register(hooks, receiver.url)
    emit(hooks)
    with caplog.at_level(logging.WARNING, logger="fieldwise.service.webhooks"):
        hooks.run_due()
        for delay in RETRY_DELAYS:
            hooks.clock.advance(delay)
            hooks.run_due()
    [notice] = hooks.client.call(ops.list_webhook_notifications()).data
    assert notice.status == "logged"
    assert notice.error == "not e-mailed: FIELDWISE_SMTP_URL is not set"
    assert notice.recipients == ["ops@example.test", "lead@example.test"]
    assert any(notice.id in record.getMessage() for record in caplog.records)


def test_smtp_failure_is_retried_on_later_passes(
    start_webhooks: Start, receivers: Receivers
) -> None:
    from tests.webhooks.receivers import SmtpServer, free_port

    port = free_port()  # nothing listens here yet
    hooks = start_webhooks(smtp_url=f"smtp://127.0.0.1:{port}")
    receiver = receivers(statuses=[500])
    register(hooks, receiver.url)
    emit(hooks)
    hooks.run_due()
    for delay in RETRY_DELAYS:
        hooks.clock.advance(delay)
        hooks.run_due()
    [notice] = hooks.client.call(ops.list_webhook_notifications()).data
    assert (notice.status, notice.tries) == ("pending", 1)
    assert notice.error is not None
    server = SmtpServer()  # a server appears; the restarted service is pointed at it
    try:
        hooks.client.close()
        hooks.running.stop()
        again = start_webhooks(smtp_url=server.url)
        assert again.run_due().emailed == 1
        assert len(server.messages) == 1
        [notice] = again.client.call(ops.list_webhook_notifications()).data
        assert (notice.status, notice.tries) == ("sent", 2)
    finally:
        server.stop()


def test_deleting_an_endpoint_kills_its_open_deliveries_without_mail(
    hooks: WebhookService, receivers: Receivers
) -> None:
    receiver = receivers(statuses=[500])
    endpoint_id, _ = register(hooks, receiver.url)
    event_id = emit(hooks)
    hooks.run_due()
    hooks.client.call(ops.delete_webhook_endpoint(endpoint_id))
    [delivery] = hooks.client.call(ops.list_webhook_deliveries(event_id=event_id)).data
    assert (delivery.state, delivery.last_error) == ("dead", "endpoint deleted")
    hooks.clock.advance(timedelta(hours=1))
    hooks.run_due()
    assert len(receiver.requests) == 1
    assert hooks.client.call(ops.list_webhook_notifications()).data == []
