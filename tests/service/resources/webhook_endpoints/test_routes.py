"""The webhook routes over real HTTP: endpoints, secrets, subscriptions, tests, SSRF, rotation."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta

import httpx
import pytest

from fieldwise._errors import NotFoundError, UnprocessableError
from fieldwise.client import ops
from fieldwise.service.events.webhooks.ssrf import UnsafeUrl, resolve_target
from fieldwise.service.ids import parse_iso
from fieldwise.webhooks import SIGNATURE_HEADER, verify
from tests.service.events.webhooks.conftest import WebhookService
from tests.service.events.webhooks.test_delivery import emit, register
from tests.webhooks.receivers import ScriptedReceiver

Receivers = Callable[..., ScriptedReceiver]


def test_endpoint_crud_shows_secret_only_at_creation_and_rotation(hooks: WebhookService) -> None:
    c = hooks.client
    created = c.call(
        ops.create_webhook_endpoint(
            "https://hooks.example.com/in",
            ["workflow.run.failed", "processor.run.completed", "workflow.run.failed"],
            description="ops",
        )
    )
    assert created.id.startswith("wh_")
    assert created.secret is not None
    assert created.secret.startswith("whsec_")
    assert created.events == ["processor.run.completed", "workflow.run.failed"]
    shown = c.call(ops.get_webhook_endpoint(created.id))
    assert shown.secret is None
    raw = httpx.get(
        f"{hooks.running.base_url}/webhooks/endpoints",
        headers={"x-api-key": hooks.running.api_key},
        timeout=60,
    ).json()
    assert "secret" not in raw["data"][0]
    assert "whsec_" not in str(raw)

    updated = c.call(ops.update_webhook_endpoint(created.id, enabled=False, description="x"))
    assert (updated.enabled, updated.description) == (False, "x")
    rotated = c.call(ops.rotate_webhook_secret(created.id))
    assert rotated.secret is not None
    assert rotated.secret != created.secret
    assert parse_iso(rotated.previous_secret_expires_at or "") == hooks.clock.now() + timedelta(
        hours=24
    )
    assert c.call(ops.delete_webhook_endpoint(created.id)).deleted is True
    with pytest.raises(NotFoundError):
        c.call(ops.get_webhook_endpoint(created.id))


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://hooks.example.com/in", "https"),
        ("ftp://hooks.example.com/in", "https"),
        ("https://10.0.0.8/in", "private"),
        ("https://192.168.1.1/in", "private"),
        ("https://169.254.169.254/latest/meta-data", "link-local"),
        ("https://[::1]/in", "loopback"),
        ("https://[::ffff:127.0.0.1]/in", "loopback"),
        ("not a url", "https"),
    ],
)
def test_unsafe_urls_are_refused_at_registration(
    hooks: WebhookService, url: str, reason: str
) -> None:
    with pytest.raises(UnprocessableError, match=reason) as refused:
        hooks.client.call(ops.create_webhook_endpoint(url, ["evaluation.completed"]))
    assert refused.value.param == "url"


def test_hostname_resolving_to_loopback_is_refused_at_registration_and_send_time(
    start_webhooks: Callable[..., WebhookService], receivers: Receivers
) -> None:
    receiver = receivers()
    port = receiver.url.split(":")[2].split("/")[0]
    # Only the literal address is allowed: "localhost" resolves to loopback and is refused.
    hooks = start_webhooks(webhook_allow_http=("127.0.0.1",))
    with pytest.raises(UnprocessableError, match="https"):
        register(hooks, f"http://localhost:{port}/hook")
    # Refused at registration while it resolves to loopback (a clear 422)...
    with pytest.raises(UnprocessableError, match="localhost resolves to a private"):
        register(hooks, f"https://localhost:{port}/hook")
    # ...and at send time, for a name that only turns private later (DNS rebinding).
    with pytest.raises(UnsafeUrl, match="localhost resolves to a private"):
        resolve_target(f"https://localhost:{port}/hook", ("127.0.0.1",))
    assert receiver.requests == []


def test_invalid_bodies_and_unknown_ids(hooks: WebhookService) -> None:
    c = hooks.client
    with pytest.raises(UnprocessableError, match="unknown event type"):
        c.call(ops.create_webhook_endpoint("https://a.example.com", ["run.done"]))
    with pytest.raises(UnprocessableError):
        c.call(ops.create_webhook_endpoint("https://a.example.com", []))
    endpoint_id, _ = register(hooks, "https://a.example.com/")
    with pytest.raises(UnprocessableError, match="https"):
        c.call(ops.update_webhook_endpoint(endpoint_id, url="http://a.example.com/"))
    with pytest.raises(UnprocessableError, match="unknown event type") as unknown_event:
        c.call(ops.send_test_webhook("nope.happened", endpoint_id))
    assert unknown_event.value.status_code == 422
    with pytest.raises(NotFoundError) as unknown_endpoint:
        c.call(ops.send_test_webhook("processor.run.completed", "wh_missing"))
    assert unknown_endpoint.value.param == "endpoint_id"
    for op in (
        ops.get_webhook_delivery("whd_missing"),
        ops.retry_webhook_delivery("whd_missing"),
        ops.rotate_webhook_secret("wh_missing"),
        ops.list_webhook_deliveries("wh_missing"),
        ops.delete_webhook_endpoint("wh_missing"),
    ):
        with pytest.raises(NotFoundError):
            c.call(op)
    response = httpx.patch(
        f"{hooks.running.base_url}/webhooks/endpoints/{endpoint_id}",
        json={"enabled": None},
        headers={"x-api-key": hooks.running.api_key},
        timeout=60,
    )
    assert response.status_code == 422


def test_endpoints_only_get_the_event_types_they_chose(
    hooks: WebhookService, receivers: Receivers
) -> None:
    runs, failures, paused = receivers(), receivers(), receivers()
    register(hooks, runs.url, ["processor.run.completed"])
    register(hooks, failures.url, ["workflow.run.failed", "processor.run.failed"])
    paused_id, _ = register(hooks, paused.url, ["processor.run.completed"])
    hooks.client.call(ops.update_webhook_endpoint(paused_id, enabled=False))
    emit(hooks, "processor.run.completed")
    emit(hooks, "workflow.run.failed")
    emit(hooks, "evaluation.completed")
    emit(hooks, "processor.run.failed")

    assert hooks.run_due().dispatched == 3

    assert [r.json["type"] for r in runs.requests] == ["processor.run.completed"]
    assert sorted(r.json["type"] for r in failures.requests) == [
        "processor.run.failed",
        "workflow.run.failed",
    ]
    assert paused.requests == []


def test_test_delivery_is_signed_and_recorded(hooks: WebhookService, receivers: Receivers) -> None:
    receiver = receivers()
    endpoint_id, secret = register(hooks, receiver.url, ["evaluation.completed"])
    queued = hooks.client.call(ops.send_test_webhook("processor.run.completed", endpoint_id))
    assert (queued.state, queued.attempts) == ("pending", [])  # sent by the dispatcher
    assert receiver.requests == []
    assert hooks.run_due().delivered == 1
    delivery = hooks.client.call(ops.get_webhook_delivery(queued.id))
    assert delivery.state == "delivered"
    [got] = receiver.requests
    assert got.json["type"] == "processor.run.completed"
    assert got.json["id"].startswith("evt_")
    assert got.json["id"] == delivery.event_id
    assert got.json["data"]["test"] is True
    assert set(got.json["data"]) >= {"processor_id", "run_id", "status", "output_uri"}
    verify(got.body, got.header(SIGNATURE_HEADER), secret, now=hooks.clock.now().timestamp())
    assert hooks.client.call(ops.get_webhook_delivery(delivery.id)).attempts[0].status_code == 200


def test_rotated_secret_signs_twice_during_grace_and_once_after(
    hooks: WebhookService, receivers: Receivers
) -> None:
    receiver = receivers()
    endpoint_id, old = register(hooks, receiver.url)
    new = hooks.client.call(ops.rotate_webhook_secret(endpoint_id)).secret
    assert new is not None

    emit(hooks)
    hooks.run_due()
    during = receiver.requests[-1]
    now = hooks.clock.now().timestamp()
    assert during.header(SIGNATURE_HEADER).count("v1=") == 2
    verify(during.body, during.header(SIGNATURE_HEADER), old, now=now)
    verify(during.body, during.header(SIGNATURE_HEADER), new, now=now)

    hooks.clock.advance(timedelta(hours=24, seconds=1))
    emit(hooks)
    hooks.run_due()
    after = receiver.requests[-1]
    now = hooks.clock.now().timestamp()
    assert after.header(SIGNATURE_HEADER).count("v1=") == 1
    verify(after.body, after.header(SIGNATURE_HEADER), new, now=now)
    with pytest.raises(ValueError, match="no v1 signature matches"):
        verify(after.body, after.header(SIGNATURE_HEADER), old, now=now)


def test_webhook_url_events_are_signed_with_the_workspace_secret(
    hooks: WebhookService, receivers: Receivers
) -> None:
    target, subscriber = receivers(), receivers()
    register(hooks, subscriber.url, ["parse.run.completed"])
    first = hooks.client.call(ops.rotate_workspace_secret(grace_period_seconds=0)).secret
    assert first is not None
    assert first.startswith("whsec_")
    shown = hooks.client.call(ops.get_workspace_secret())
    assert shown.secret is None
    event_id = emit(hooks, "parse.run.completed", target_url=target.url)

    hooks.run_due()

    assert subscriber.requests == []  # addressed to one URL, not to the subscribers
    [got] = target.requests
    assert got.json["id"] == event_id
    verify(got.body, got.header(SIGNATURE_HEADER), first, now=hooks.clock.now().timestamp())
    [delivery] = hooks.client.call(ops.list_webhook_deliveries(event_id=event_id)).data
    assert (delivery.endpoint_id, delivery.state) == (None, "delivered")


def test_parse_file_async_webhook_url_is_notified_through_the_same_machinery(
    hooks: WebhookService, receivers: Receivers
) -> None:
    from tests.webhooks.receivers import wait_for

    receiver = receivers()
    secret = hooks.client.call(ops.rotate_workspace_secret()).secret
    assert secret is not None
    run = hooks.client.call(
        ops.parse_file_async(b"Invoice total 12.00\n", filename="a.txt", webhook_url=receiver.url)
    )

    def notified() -> bool:
        hooks.run_due()
        return bool(receiver.requests)

    wait_for(notified, timeout=20)
    [got] = receiver.requests
    assert got.json["type"] == "parse.run.completed"
    assert run.id in json.dumps(got.json["data"])
    verify(got.body, got.header(SIGNATURE_HEADER), secret, now=hooks.clock.now().timestamp())
