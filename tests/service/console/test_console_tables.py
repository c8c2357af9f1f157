"""Every console table at 390 px (a phone) in Debian's headless Chromium: the page never scrolls
sideways, and every cell is on screen — rows reflow into label/value blocks instead of hiding
their right-hand columns in a sideways-scrolling box. At 1440 px they stay tables.

Screenshots of each page at 390 px go to ``<tmp>/tables``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page

from fieldwise.client import Client, ops
from fieldwise.service import RunningService
from tests.conftest import ServiceFactory
from tests.service.console._browser import watch
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

LONG = "a description long enough to need several lines on a phone, " * 3

# Every body cell that is not on screen (left of 0 or right of the viewport). The header row
# may be visually hidden on a phone: each cell then carries its column's label.
_OFF_SCREEN_JS = """
() => {
  const vw = window.innerWidth;
  const off = [];
  for (const cell of document.querySelectorAll("table tbody td, table tbody th")) {
    const r = cell.getBoundingClientRect();
    if (r.left < -0.5 || r.right > vw + 0.5) off.push(`${cell.textContent.trim()} ${r.right}`);
  }
  return off;
}
"""


@pytest.fixture
def receiver() -> Iterator[ScriptedReceiver]:
    made = ScriptedReceiver((500,))
    yield made
    made.stop()


def fill(service: RunningService, client: Client, receiver: ScriptedReceiver) -> list[str]:
    """One row or more in every table of the console; the paths of the pages that show them."""
    processor_id = make_processor(client, "Invoices of every supplier we have")
    draft = client.create_version(processor_id, CONFIG, description=LONG)
    created = httpx.post(
        service.base_url + "/api-keys",
        json={"name": "a reader for the nightly pipeline", "scope": "read"},
        headers={"x-api-key": service.api_key},
        timeout=60,
    )
    assert created.is_success, created.text
    endpoint = client.call(
        ops.create_webhook_endpoint(receiver.url, ["processor.run.completed"], description=LONG)
    )
    file_id = client.upload_file(invoice(1), filename="inv-1.txt").id
    run = client.call(ops.create_run(processor_id, file_id))
    assert wait_run(client, processor_id, run.id).status == "succeeded"
    delivery = wait_for(
        lambda: next(
            (
                d
                for d in client.call(ops.list_webhook_deliveries(endpoint.id)).data
                if d.state == "retrying"
            ),
            None,
        )
    )
    eval_set_id, _items = make_set(client, "ab", "invoices")
    evaluation = client.call(ops.create_evaluation_run(eval_set_id, processor_id))
    assert wait_evaluation(client, eval_set_id, evaluation.id).status == "succeeded"
    assert draft.status == "drafted"
    return [
        "/console/settings/api-keys",
        "/console/settings/webhooks",
        f"/console/settings/webhooks/{endpoint.id}",
        f"/console/settings/webhooks/{endpoint.id}/deliveries/{delivery.id}",
        "/console/processors",
        f"/console/processors/{processor_id}",
        "/console/runs",
        "/console/evaluation-sets",
        f"/console/evaluation-sets/{eval_set_id}",
    ]


def sign_in(page: Page, service: RunningService) -> None:
    page.goto(service.base_url + "/console/settings/api-keys")
    page.fill("#api_key", service.api_key)
    page.keyboard.press("Enter")
    page.wait_for_url(service.base_url + "/console/settings/api-keys")


def test_every_table_fits_a_phone(
    browser: Browser,
    start_service: ServiceFactory,
    receiver: ScriptedReceiver,
    tmp_path: Path,
) -> None:
    service = start_service(webhook_allow_http=("127.0.0.1",))
    with Client(service.base_url, service.api_key, max_retries=0) as client:
        paths = fill(service, client, receiver)
    assert httpx.get(service.base_url + "/console/static/console.js", timeout=60).is_success

    folder = tmp_path / "tables"
    folder.mkdir()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    problems = watch(page)
    sign_in(page, service)
    for path in paths:
        page.goto(service.base_url + path)
        assert page.locator("table").count() >= 1, path
        assert page.locator("table tbody tr").count() >= 1, path
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, (path, width)
        assert page.evaluate(_OFF_SCREEN_JS) == [], path
        name = "-".join(part[:12] for part in path.removeprefix("/console/").split("/"))
        page.screenshot(path=str(folder / f"{name}-390.png"), full_page=True)

    # On a wide screen the same pages are tables, header row and all.
    page.set_viewport_size({"width": 1440, "height": 900})
    for path in paths:
        page.goto(service.base_url + path)
        assert page.locator("table thead th").first.is_visible(), path
        assert page.evaluate("document.documentElement.scrollWidth") <= 1440, path
    context.close()
    assert problems == []
