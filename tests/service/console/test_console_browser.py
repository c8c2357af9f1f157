"""The console in Debian's headless Chromium, end to end: sign in with the admin key → create a
read key (secret shown once) → register a webhook endpoint → run a processor → the delivery is
delivered with its payload → point the endpoint at a failing receiver → the delivery retries →
re-send from the console → delivered → revoke the key → 401. Every page is screenshotted at
1440 and 390 px and checked for horizontal overflow.

Nothing waits on time: each step waits for a state it can observe (a run's status, a delivery's
state through the API), with a bound that only guards against hangs. The service runs on a manual
clock, so the failed delivery's next retry never comes due by itself: only the console's re-send
sends it again.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from fieldwise._config import ServiceSettings
from fieldwise.client import Client, ops
from fieldwise.service import RunningService, create_app, start_in_thread
from fieldwise.service.clock import ManualClock
from fieldwise.service.ids import isoformat
from tests.conftest import TEST_KEY
from tests.service.console._browser import Camera, watch
from tests.service.resources.evaluation_runs.conftest import make_set, wait_evaluation
from tests.service.resources.runs.conftest import (
    CONFIG,
    invoice,
    make_processor,
    wait_for,
    wait_run,
)
from tests.webhooks.receivers import ScriptedReceiver

pytestmark = pytest.mark.slow

XSS = "<script>alert(1)</script>"


@pytest.fixture
def receivers() -> Iterator[list[ScriptedReceiver]]:
    made: list[ScriptedReceiver] = []
    yield made
    for receiver in made:
        receiver.stop()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def hooked(tmp_path: Path, clock: ManualClock) -> Iterator[RunningService]:
    """The service on a manual clock, allowed to deliver webhooks to loopback receivers over
    plain http. The clock never moves by itself, so a failed delivery's retry never comes due:
    only the console's re-send sends it again."""
    settings = ServiceSettings(
        data_dir=tmp_path / "service", api_keys=(TEST_KEY,), webhook_allow_http=("127.0.0.1",)
    )
    app = create_app(settings, clock=clock, announce=lambda _m: None)
    with start_in_thread(settings, app=app) as running:
        yield running


@pytest.fixture
def api(hooked: RunningService) -> Iterator[Client]:
    with Client(hooked.base_url, hooked.api_key, max_retries=0) as client:
        yield client


def run_processor(client: Client, processor_id: str, number: int) -> str:
    file_id = client.upload_file(invoice(number), filename=f"inv-{number}.txt").id
    run = client.call(ops.create_run(processor_id, file_id))
    assert wait_run(client, processor_id, run.id).status == "succeeded"
    return run.id


def delivery_of(service: RunningService, endpoint_id: str, run_id: str, state: str) -> Any:
    """Wait until the endpoint's delivery of ``run_id``'s completion is in ``state``."""

    def check() -> Any:
        page = httpx.get(
            f"{service.base_url}/webhooks/endpoints/{endpoint_id}/deliveries",
            headers={"x-api-key": service.api_key},
            timeout=60,
        ).json()
        return next(
            (
                d
                for d in page["data"]
                if d["payload"]["data"].get("run_id") == run_id and d["state"] == state
            ),
            None,
        )

    return wait_for(check, timeout=30)


def sign_in_by_keyboard(page: Page, service: RunningService, camera: Camera) -> None:
    page.goto(service.base_url + "/console/settings/api-keys")
    expect(page).to_have_url(service.base_url + "/console/sign-in?next=/console/settings/api-keys")
    camera.capture(page, "sign-in")
    # The key field has focus on arrival: type the key and press Enter.
    expect(page.locator("#api_key")).to_be_focused()
    page.keyboard.type(service.api_key)
    page.keyboard.press("Enter")
    expect(page).to_have_url(service.base_url + "/console/settings/api-keys")


def test_console_end_to_end(
    browser: Browser,
    hooked: RunningService,
    api: Client,
    clock: ManualClock,
    receivers: list[ScriptedReceiver],
    tmp_path: Path,
) -> None:
    service, client = hooked, api
    camera = Camera(tmp_path / "screens")
    good = ScriptedReceiver((200,))
    failing = ScriptedReceiver((500,))
    receivers += [good, failing]
    processor_id = make_processor(client, "Invoices")
    draft = client.create_version(processor_id, CONFIG, description="next try")
    eval_set_id, _items = make_set(client, "ab", "invoices")
    evaluation = client.call(ops.create_evaluation_run(eval_set_id, processor_id))
    assert wait_evaluation(client, eval_set_id, evaluation.id).status == "succeeded"

    context = browser.new_context(viewport={"width": 1440, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    problems = watch(page)
    sign_in_by_keyboard(page, service, camera)

    # Keyboard: the first Tab reaches the skip link, which moves focus to the content.
    page.keyboard.press("Tab")
    expect(page.locator("a.skip")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#main")).to_be_focused()

    # A read key: its secret shown once (with a copy button), then never again.
    page.fill("#key-name", "ci reader")
    page.select_option("#key-scope", "read")
    page.click("text=Create key")
    secret = page.input_value("#secret-value")
    assert secret.startswith("fw_")
    page.click("button[data-copy]")
    expect(page.locator("button[data-copy]")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == secret
    camera.capture(page, "api-key-created")
    page.click("text=Back to API keys")
    expect(page.locator("tbody tr")).to_have_count(1)
    assert secret not in page.content()
    page.go_back()  # the creation was a POST answer: it is not kept, so nothing to show
    assert secret not in page.content()
    page.goto(service.base_url + "/console/settings/api-keys")
    camera.capture(page, "api-keys")

    # Register an endpoint for processor.run.completed; its secret shown once.
    page.goto(service.base_url + "/console/settings/webhooks")
    page.fill("#wh-url", good.url)
    page.fill("#wh-description", XSS)
    page.check("input[name=events][value='processor.run.completed']")
    camera.capture(page, "webhooks")
    page.click("text=Register endpoint")
    assert page.input_value("#secret-value").startswith("whsec_")
    camera.capture(page, "webhook-registered")
    page.click("text=Go to the endpoint")
    endpoint_id = page.url.rsplit("/", 1)[1]
    expect(page.locator("#endpoint-description")).to_have_text(XSS)

    # A run completes → its delivery is delivered, with the payload on its page.
    run_id = run_processor(client, processor_id, 1)
    delivered = delivery_of(service, endpoint_id, run_id, "delivered")
    page.reload()
    row = page.locator(f"tr#{delivered['id']}")
    expect(row).to_have_attribute("data-state", "delivered")
    camera.capture(page, "webhook-endpoint")
    row.locator("a").click()
    expect(page.locator("#delivery-state")).to_have_attribute("data-state", "delivered")
    expect(page.locator("#payload")).to_contain_text(run_id)
    expect(page.locator("#payload")).to_contain_text("processor.run.completed")
    assert good.requests
    assert good.requests[-1].json["data"]["run_id"] == run_id

    # Point the endpoint at a failing receiver: the next delivery is retrying, with attempts.
    page.goto(f"{service.base_url}/console/settings/webhooks/{endpoint_id}")
    page.fill("#edit-url", failing.url)
    page.click("text=Save")
    expect(page.locator("h1")).to_have_text(failing.url)
    failed_run = run_processor(client, processor_id, 2)
    retrying = delivery_of(service, endpoint_id, failed_run, "retrying")
    assert retrying["attempt_count"] == 1
    # The first retry is a minute after the failed attempt, in the service's (manual) time.
    assert retrying["next_attempt_at"] == isoformat(clock.now() + timedelta(minutes=1))
    page.goto(
        f"{service.base_url}/console/settings/webhooks/{endpoint_id}/deliveries/{retrying['id']}"
    )
    expect(page.locator("#delivery-state")).to_have_attribute("data-state", "retrying")
    expect(page.locator("#attempts tbody tr")).to_have_count(1)
    expect(page.locator("#attempts tbody tr").first).to_contain_text("500")
    expect(page.locator("#next-retry")).to_have_text(retrying["next_attempt_at"])
    camera.capture(page, "delivery-retrying")

    # The receiver recovers; re-send from the console → delivered, same event id.
    failing.statuses = (200,)
    page.click("text=Re-send now")
    expect(page.locator("#delivery-state")).to_have_attribute("data-state", "delivered")
    expect(page.locator("#attempts tbody tr")).to_have_count(2)
    expect(page.locator("#attempts tbody tr").nth(1)).to_contain_text("manual")
    assert failing.requests[-1].json["id"] == retrying["event_id"]
    camera.capture(page, "delivery-delivered")

    # Deleting asks first (not confirmed here); an unknown id is an error page, not JSON.
    page.goto(f"{service.base_url}/console/settings/webhooks/{endpoint_id}")
    page.click("text=Delete…")
    expect(page.locator("h1")).to_have_text("Delete this endpoint?")
    camera.capture(page, "webhook-delete-confirm")
    page.goto(f"{service.base_url}/console/settings/webhooks/wh_nope")
    expect(page.locator("p.error")).to_contain_text("No webhook endpoint with id 'wh_nope'")
    camera.capture(page, "not-found")
    problems.remove(  # the browser reports the 404 itself
        "error: Failed to load resource: the server responded with a status of 404 (Not Found)"
    )

    # Overview pages: processors, versions with publish behind a confirmation, runs, evaluations.
    page.goto(service.base_url + "/console/processors")
    camera.capture(page, "processors")
    page.click("text=Invoices")
    camera.capture(page, "processor")
    page.click(f"tr#{draft.id} >> text=Publish…")
    camera.capture(page, "publish-confirm")
    page.click("button:has-text('Publish')")
    expect(page.locator(f"tr#{draft.id}")).to_contain_text("published")
    page.goto(service.base_url + "/console/runs")
    expect(page.locator(f"tr#{failed_run}")).to_contain_text("succeeded")
    camera.capture(page, "runs")
    page.goto(service.base_url + "/console/evaluation-sets")
    camera.capture(page, "evaluation-sets")
    page.click("text=invoices")
    expect(page.locator(f"tr#{evaluation.id}")).to_contain_text("accuracy")
    camera.capture(page, "evaluation-set")

    # Revoke the read key (behind a confirmation): a request with it gets 401 at once.
    assert httpx.get(
        service.base_url + "/processors", headers={"x-api-key": secret}, timeout=60
    ).is_success
    page.goto(service.base_url + "/console/settings/api-keys")
    page.click("text=Revoke…")
    camera.capture(page, "api-key-revoke")
    page.click("button:has-text('Revoke key')")
    expect(page.locator("tbody tr").first).to_contain_text("revoked")
    refused = httpx.get(service.base_url + "/processors", headers={"x-api-key": secret}, timeout=60)
    assert refused.status_code == 401

    assert problems == []
    assert len(camera.taken) == 2 * 17
    context.close()
