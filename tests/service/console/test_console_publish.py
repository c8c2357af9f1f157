"""Publishing from the console a version whose last gate verdict failed: the page shows the
verdict and asks for the version's number typed; the publish is refused without it, and with it
the override (who: the console session and its key; when; which verdict) is kept on the version
and sent in the ``processor.version.published`` event. A version that passed publishes as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from fieldwise.client import Client
from fieldwise.service import RunningService
from tests.conftest import ServiceFactory
from tests.service.console.conftest import SignIn, csrf_of
from tests.service.resources.runs.conftest import CONFIG, make_processor
from tests.webhooks.receivers import ScriptedReceiver, wait_for

FAILED: dict[str, Any] = {
    "outcome": "fail",
    "runset_id": "rs_20261128T020000_abc123",
    "policy": "examples/gate.toml",
    "reasons": ["due_date: accuracy 0.812 < 0.900"],
}


@pytest.fixture
def receiver() -> Iterator[ScriptedReceiver]:
    made = ScriptedReceiver((200,))
    yield made
    made.stop()


def call(service: RunningService, method: str, path: str, **kwargs: object) -> httpx.Response:
    headers = {"x-api-key": service.api_key}
    return httpx.request(method, service.base_url + path, headers=headers, timeout=60, **kwargs)  # type: ignore[arg-type]


def test_publishing_over_a_failed_verdict_asks_and_records_the_override(
    start_service: ServiceFactory, sign_in: SignIn, receiver: ScriptedReceiver
) -> None:
    service = start_service(webhook_allow_http=("127.0.0.1",))
    with Client(service.base_url, service.api_key, max_retries=0) as client:
        processor_id = make_processor(client, "Invoices")
        failing = client.create_version(processor_id, CONFIG, description="worse")
        passing = client.create_version(processor_id, CONFIG, description="better")
    hook = call(
        service,
        "POST",
        "/webhooks/endpoints",
        json={"url": receiver.url, "events": ["processor.version.published"]},
    )
    assert hook.is_success, hook.text
    base = f"/processors/{processor_id}/versions"
    recorded = call(service, "PUT", f"{base}/{failing.id}/verdict", json=FAILED)
    assert recorded.status_code == 200, recorded.text
    verdict = recorded.json()["verdict"]
    assert verdict["outcome"] == "fail"
    assert verdict["recorded_by"] == "operator key"
    assert call(service, "PUT", f"{base}/{passing.id}/verdict", json={"outcome": "pass"}).is_success

    http = sign_in(service)
    page = http.get(f"/console{base}/{failing.id}/publish")
    assert page.status_code == 200
    assert "due_date: accuracy 0.812 &lt; 0.900" in page.text  # escaped, as all typed text
    assert FAILED["runset_id"] in page.text
    assert 'name="confirm"' in page.text
    csrf = csrf_of(page.text)

    # No CSRF token: refused as every console form is.
    no_token = http.post(f"/console{base}/{failing.id}/publish", data={"confirm": "2"})
    assert no_token.status_code == 403
    # Without the number typed, or with another one: refused, still a draft.
    for typed in ("", "3", "publish"):
        refused = http.post(
            f"/console{base}/{failing.id}/publish", data={"csrf": csrf, "confirm": typed}
        )
        assert refused.status_code == 422, typed
        assert "Type 2" in refused.text
    assert call(service, "GET", f"{base}/{failing.id}").json()["status"] == "drafted"

    published = http.post(
        f"/console{base}/{failing.id}/publish", data={"csrf": csrf, "confirm": " v2 "}
    )
    assert published.status_code == 303
    version = call(service, "GET", f"{base}/{failing.id}").json()
    assert version["status"] == "published"
    override = version["publish_override"]
    assert override["at"] == version["published_at"]
    assert override["by"].startswith("console session ses_")
    assert "(key operator)" in override["by"]
    assert override["verdict"] == verdict
    listing = http.get(f"/console/processors/{processor_id}").text
    assert "over a fail verdict" in listing

    # A version that passed: no confirmation asked, no override recorded.
    plain = http.get(f"/console{base}/{passing.id}/publish").text
    assert 'name="confirm"' not in plain
    assert http.post(f"/console{base}/{passing.id}/publish", data={"csrf": csrf}).status_code == 303
    assert call(service, "GET", f"{base}/{passing.id}").json()["publish_override"] is None

    # Both publishes are events; the override travels in the first.
    def published_events() -> dict[str, dict[str, object]]:
        return {r.json["data"]["version_id"]: r.json for r in receiver.requests}

    wait_for(lambda: {failing.id, passing.id} <= set(published_events()))
    events = published_events()
    assert events[failing.id]["type"] == "processor.version.published"
    assert events[failing.id]["data"] == {
        "processor_id": processor_id,
        "version_id": failing.id,
        "number": 2,
        "published_at": version["published_at"],
        "publish_override": override,
    }
    assert events[passing.id]["data"]["publish_override"] is None  # type: ignore[index]
