"""Delivery against real receivers on loopback, driven in virtual time with ``run_due``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from fieldwise.client import ops
from fieldwise.service.events.outbox import record_event
from fieldwise.service.events.webhooks import RETRY_DELAYS
from fieldwise.service.ids import isoformat
from fieldwise.webhooks import SIGNATURE_HEADER, verify
from tests.service.events.webhooks.conftest import START, WebhookService
from tests.webhooks.receivers import ScriptedReceiver

Receivers = Callable[..., ScriptedReceiver]
RUN_DATA = {
    "processor_id": "invoices",
    "run_id": "run_1",
    "status": "succeeded",
    "output_uri": "http://x/files/file_1",
}


def emit(hooks: WebhookService, type_: str = "processor.run.completed", **kw: object) -> str:
    with hooks.state.engine.begin() as conn:
        return record_event(conn, hooks.state.clock, type_, dict(RUN_DATA), **kw)  # type: ignore[arg-type]


def register(hooks: WebhookService, url: str, events: list[str] | None = None) -> tuple[str, str]:
    endpoint = hooks.client.call(
        ops.create_webhook_endpoint(url, events or ["processor.run.completed"])
    )
    assert endpoint.secret is not None
    return endpoint.id, endpoint.secret


def test_first_try_delivery_is_signed_and_shaped(
    hooks: WebhookService, receivers: Receivers
) -> None:
    receiver = receivers()
    endpoint_id, secret = register(hooks, receiver.url)
    event_id = emit(hooks)

    outcome = hooks.run_due()

    assert (outcome.dispatched, outcome.attempted, outcome.delivered) == (1, 1, 1)
    assert len(receiver.requests) == 1
    got = receiver.requests[0]
    assert got.json == {
        "id": event_id,
        "type": "processor.run.completed",
        "created_at": isoformat(START),
        "data": RUN_DATA,
    }
    assert got.header("content-type") == "application/json"
    assert verify(got.body, got.header(SIGNATURE_HEADER), secret, now=START.timestamp()) == int(
        START.timestamp()
    )
    [delivery] = hooks.client.call(ops.list_webhook_deliveries(endpoint_id)).data
    assert delivery.state == "delivered"
    assert delivery.event_id == event_id
    assert [a.status_code for a in delivery.attempts] == [200]
    assert delivery.payload["id"] == event_id
    assert hooks.run_due().attempted == 0  # nothing is sent twice


def test_failing_then_succeeding_receives_same_event_id(
    hooks: WebhookService, receivers: Receivers
) -> None:
    failures = 3
    receiver = receivers(statuses=[500] * failures + [204])
    endpoint_id, _ = register(hooks, receiver.url)
    event_id = emit(hooks)

    hooks.run_due()
    for delay in RETRY_DELAYS[:failures]:
        hooks.clock.advance(delay - timedelta(seconds=1))
        assert hooks.run_due().attempted == 0  # not due yet
        hooks.clock.advance(timedelta(seconds=1))
        assert hooks.run_due().attempted == 1

    assert [r.json["id"] for r in receiver.requests] == [event_id] * (failures + 1)
    assert len({r.body for r in receiver.requests}) == 1
    delivery = hooks.client.call(ops.list_webhook_deliveries(endpoint_id)).data[0]
    assert delivery.state == "delivered"
    assert [a.status_code for a in delivery.attempts] == [500, 500, 500, 204]
    assert delivery.attempts[0].error == "HTTP 500"


def test_always_failing_dies_after_nine_retries_and_mails_admins(
    start_webhooks: Callable[..., WebhookService], receivers: Receivers, smtp: object
) -> None:
    from tests.webhooks.receivers import SmtpServer

    assert isinstance(smtp, SmtpServer)
    hooks = start_webhooks(smtp_url=smtp.url)
    receiver = receivers(statuses=[503])
    endpoint_id, _ = register(hooks, receiver.url)
    emit(hooks)

    hooks.run_due()
    expected = [START]
    for delay in RETRY_DELAYS:
        delivery = hooks.client.call(ops.list_webhook_deliveries(endpoint_id)).data[0]
        assert delivery.state == "retrying"
        assert delivery.next_attempt_at == isoformat(expected[-1] + delay)
        hooks.clock.advance(delay)
        expected.append(expected[-1] + delay)
        hooks.run_due()

    delivery = hooks.client.call(ops.list_webhook_deliveries(endpoint_id)).data[0]
    assert delivery.state == "dead"
    assert len(receiver.requests) == 10  # first try + exactly 9 retries
    assert [a.started_at for a in delivery.attempts] == [isoformat(t) for t in expected]
    assert expected[-1] - START < timedelta(hours=24)
    assert len(smtp.messages) == 1
    message = smtp.messages[0]
    assert delivery.id in str(message["Subject"])
    assert sorted(smtp.handler.envelopes[0][1]) == sorted(["ops@example.test", "lead@example.test"])
    [notice] = hooks.client.call(ops.list_webhook_notifications()).data
    assert notice.status == "sent"

    hooks.clock.advance(timedelta(days=2))
    hooks.run_due()
    assert len(receiver.requests) == 10
    assert len(smtp.messages) == 1

    # A manual retry of the dead delivery, once the receiver is fixed, delivers it.
    receiver.statuses = [200]
    retried = hooks.client.call(ops.retry_webhook_delivery(delivery.id))
    assert retried.state == "delivered"
    assert retried.attempts[-1].trigger == "manual"
    assert receiver.requests[-1].json["id"] == delivery.event_id
    assert receiver.requests[-1].body == receiver.requests[0].body
