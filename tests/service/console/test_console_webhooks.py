"""The webhook forms of the console over plain HTTP: register (secret once), rotate with the
grace period shown, disable and enable, send a test event, delete behind a confirmation."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from fieldwise.service import RunningService
from tests.conftest import ServiceFactory
from tests.service.console.conftest import SignIn, csrf_of
from tests.webhooks.receivers import ScriptedReceiver, wait_for


@pytest.fixture
def receiver() -> Iterator[ScriptedReceiver]:
    made = ScriptedReceiver((200,))
    yield made
    made.stop()


def api(service: RunningService, path: str) -> httpx.Response:
    return httpx.get(service.base_url + path, headers={"x-api-key": service.api_key}, timeout=60)


def test_every_webhook_form(
    start_service: ServiceFactory, sign_in: SignIn, receiver: ScriptedReceiver
) -> None:
    service = start_service(webhook_allow_http=("127.0.0.1",))
    http = sign_in(service)
    csrf = csrf_of(http.get("/console/settings/webhooks").text)

    registered = http.post(
        "/console/settings/webhooks",
        data={"csrf": csrf, "url": receiver.url, "description": "ci", "events": ["x.y"]},
    )
    assert registered.status_code == 422
    assert "unknown event type" in registered.text
    registered = http.post(
        "/console/settings/webhooks",
        data={
            "csrf": csrf,
            "url": receiver.url,
            "description": "ci",
            "events": ["processor.run.completed", "evaluation.completed"],
        },
    )
    first_secret = re.search(r'value="(whsec_[^"]+)"', registered.text)
    assert first_secret
    endpoint = api(service, "/webhooks/endpoints").json()["data"][0]
    assert endpoint["events"] == ["evaluation.completed", "processor.run.completed"]
    page = http.get(f"/console/settings/webhooks/{endpoint['id']}").text
    assert first_secret.group(1) not in page

    rotated = http.post(
        f"/console/settings/webhooks/{endpoint['id']}/rotate",
        data={"csrf": csrf, "grace_hours": "1"},
    )
    new_secret = re.search(r'value="(whsec_[^"]+)"', rotated.text)
    assert new_secret
    assert new_secret.group(1) != first_secret.group(1)
    expires = api(service, f"/webhooks/endpoints/{endpoint['id']}").json()
    assert expires["previous_secret_expires_at"] in rotated.text
    assert (
        f"valid until <time>{expires['previous_secret_expires_at']}"
        in http.get(f"/console/settings/webhooks/{endpoint['id']}").text
    )

    http.post(
        f"/console/settings/webhooks/{endpoint['id']}/enabled",
        data={"csrf": csrf, "enabled": "false"},
    )
    assert api(service, f"/webhooks/endpoints/{endpoint['id']}").json()["enabled"] is False
    http.post(
        f"/console/settings/webhooks/{endpoint['id']}/enabled",
        data={"csrf": csrf, "enabled": "true"},
    )
    assert api(service, f"/webhooks/endpoints/{endpoint['id']}").json()["enabled"] is True

    sent = http.post(
        f"/console/settings/webhooks/{endpoint['id']}/test",
        data={"csrf": csrf, "event": "evaluation.completed"},
    )
    assert sent.status_code == 303
    # The test send is queued and the dispatcher sends it: the page shows it delivered soon.
    wait_for(lambda: receiver.requests)
    wait_for(lambda: 'data-state="delivered"' in http.get(sent.headers["location"]).text)
    delivery_page = http.get(sent.headers["location"])
    event = receiver.requests[-1].json
    assert event["type"] == "evaluation.completed"
    assert event["id"] in delivery_page.text
    # Signed with both secrets during the grace period: two v1 values.
    assert receiver.requests[-1].header("x-service-signature").count("v1=") == 2

    confirm = http.get(f"/console/settings/webhooks/{endpoint['id']}/delete")
    assert "Delete this endpoint?" in confirm.text
    deleted = http.post(f"/console/settings/webhooks/{endpoint['id']}/delete", data={"csrf": csrf})
    assert deleted.headers["location"] == "/console/settings/webhooks?deleted=1"
    assert api(service, f"/webhooks/endpoints/{endpoint['id']}").status_code == 404
    bad_grace = http.post(
        "/console/settings/webhooks/wh_x/rotate", data={"csrf": csrf, "grace_hours": "many"}
    )
    assert bad_grace.status_code == 422
    assert bad_grace.headers["content-type"].startswith("text/html")


def test_deliveries_newest_first_with_a_state_filter(
    start_service: ServiceFactory, sign_in: SignIn
) -> None:
    """21 delivered test sends then one failing: the failing one heads the first page (the
    API's list keeps creation order), and the state filter shows it alone."""
    receiver = ScriptedReceiver((200,) * 21 + (500,))
    try:
        service = start_service(webhook_allow_http=("127.0.0.1",))
        headers = {"x-api-key": service.api_key}
        endpoint = httpx.post(
            service.base_url + "/webhooks/endpoints",
            json={"url": receiver.url, "events": ["evaluation.completed"]},
            headers=headers,
            timeout=60,
        ).json()
        sent: list[str] = []
        for n in range(22):
            answer = httpx.post(
                service.base_url + "/webhooks/test",
                json={"event": "evaluation.completed", "endpoint_id": endpoint["id"]},
                headers=headers,
                timeout=60,
            )
            assert answer.status_code < 300, answer.text
            sent.append(answer.json()["id"])
            wait_for(lambda n=n: len(receiver.requests) > n)
        failing = sent[-1]

        def state_of_failing() -> str:
            return str(api(service, f"/webhooks/deliveries/{failing}").json()["state"])

        wait_for(lambda: state_of_failing() != "pending")
        assert state_of_failing() == "retrying"

        http = sign_in(service)
        page = http.get(f"/console/settings/webhooks/{endpoint['id']}").text
        rows = re.findall(r'<tr id="(whd_[^"]+)" data-state="(\w+)"', page)
        assert len(rows) == 20
        assert rows[0] == (failing, "retrying")
        assert [r[0] for r in rows] == sent[::-1][:20]
        assert 'rel="next"' in page

        failing_only = http.get(f"/console/settings/webhooks/{endpoint['id']}?state=failing").text
        assert re.findall(r'<tr id="(whd_[^"]+)"', failing_only) == [failing]
        delivered = http.get(f"/console/settings/webhooks/{endpoint['id']}?state=delivered").text
        rows = re.findall(r'<tr id="(whd_[^"]+)" data-state="(\w+)"', delivered)
        assert {s for _, s in rows} == {"delivered"}
        assert len(rows) == 20
        # The next page keeps the filter.
        following = re.search(r'href="([^"]+)" rel="next"', delivered)
        assert following
        rest = http.get(following.group(1).replace("&amp;", "&")).text
        assert re.findall(r'<tr id="(whd_[^"]+)"', rest) == [sent[0]]
        unknown = http.get(f"/console/settings/webhooks/{endpoint['id']}?state=lost")
        assert unknown.status_code == 422

        # The API's own list still answers in creation order, as its cursors promise.
        listed = api(service, f"/webhooks/endpoints/{endpoint['id']}/deliveries?limit=100")
        assert [d["id"] for d in listed.json()["data"]] == sent
    finally:
        receiver.stop()
