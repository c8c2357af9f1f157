"""The toolkit records its verdict at the service, and the console acts on it (issue 39 item 6):
``fieldwise evaluate`` and ``fieldwise gate`` over real HTTP send each candidate's verdict; a
candidate that FAILed is then published from the console in Chromium only after its number is
typed, and the override (who, when, which verdict) is visible through the API afterwards. A
service without the verdict route (405) gets one note and the gate still decides."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator, MutableSet
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

from fieldwise.datasets.generate import generate_dataset
from fieldwise.runner import load_runset
from fieldwise.service import RunningService
from tests.cli_main import MainResult, run_main
from tests.conftest import ServiceFactory
from tests.service.console._browser import Camera, watch

REPO = Path(__file__).resolve().parents[3]
#: Evaluate, gate twice, publish in Chromium: ~25 s end to end, the one test of the whole path.
pytestmark = pytest.mark.slow
VERDICT_ROUTE = re.compile(r"^/processors/[^/]+/versions/[^/]+/verdict$")

App = Callable[..., Any]


def _refusing(app: App, refused: MutableSet[str]) -> App:
    """``app``, except that while ``refused`` holds "verdict" the verdict route answers 405, as a
    service without the extension would."""

    async def wrapped(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and "verdict" in refused and VERDICT_ROUTE.match(scope["path"]):
            await send({"type": "http.response.start", "status": 405, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        await app(scope, receive, send)

    return wrapped


@pytest.fixture
def closing() -> Iterator[Callable[[httpx.Client], httpx.Client]]:
    """Clients closed at teardown, whatever the test asserted."""
    made: list[httpx.Client] = []

    def keep(client: httpx.Client) -> httpx.Client:
        made.append(client)
        return client

    yield keep
    for client in made:
        client.close()


def _cli(*args: str) -> MainResult:
    """``fieldwise ARGS`` in-process, on a thread of its own: Playwright's sync API keeps an
    event loop running on this one, and the CLI runs its own."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run_main, *args).result()


def _dataset(root: Path) -> Path:
    """12 generated invoices; the candidate cannot find any due date (a label no document has),
    so it regresses on every document the baseline read one from: a FAIL."""
    generate_dataset("invoices", count=12, seed=5, out_dir=root, scanned_share=0.0)
    processor = REPO / "datasets" / "invoices" / "processor"
    shutil.copytree(processor, root / "processor", dirs_exist_ok=True)
    config = json.loads((processor / "v1.json").read_text(encoding="utf-8"))
    for spec in config["fields"]:
        if spec["name"] == "due_date":
            spec["labels"] = ["Qxzqv Wjkxq"]
    (root / "processor" / "v2.json").write_text(json.dumps(config), encoding="utf-8")
    return root


def test_the_gate_records_a_fail_and_the_console_asks_for_the_number(
    start_service: ServiceFactory,
    browser: Browser,
    closing: Callable[[httpx.Client], httpx.Client],
    tmp_path: Path,
) -> None:
    refused: set[str] = set()
    service: RunningService = start_service(wrap=lambda app: _refusing(app, refused))
    remote = ("--base-url", service.base_url, "--api-key", service.api_key)
    api = closing(
        httpx.Client(base_url=service.base_url, headers={"x-api-key": service.api_key}, timeout=60)
    )

    evaluated = _cli("evaluate", str(_dataset(tmp_path / "invoices")), "--quiet", *remote)
    assert evaluated.exit_code == 1, evaluated.stdout + evaluated.stderr
    assert "verdict: FAIL" in evaluated.stdout
    runset_id = re.search(r"run set (rs_\w+)", evaluated.stdout).group(1)  # type: ignore[union-attr]
    manifest = load_runset(runset_id).manifest
    processor_id, candidate = manifest.processor_id, manifest.versions[1].version_id
    version_url = f"/processors/{processor_id}/versions/{candidate}"
    after_evaluate = api.get(version_url).json()["verdict"]
    assert (after_evaluate["outcome"], after_evaluate["runset_id"]) == ("fail", runset_id)

    # the gate records it too: overwrite with a pass, then gate the run set again
    assert api.put(f"{version_url}/verdict", json={"outcome": "pass"}).is_success
    refused.add("verdict")  # a service without the extension: one note, the verdict stands
    gated = _cli("gate", runset_id, *remote)
    assert gated.exit_code == 1, gated.stdout + gated.stderr
    (note,) = [line for line in gated.stderr.splitlines() if line.startswith("note: ")]
    assert "the verdict was not recorded at" in note
    assert "answered 405" in note
    assert api.get(version_url).json()["verdict"]["outcome"] == "pass"
    refused.clear()
    gated = _cli("gate", runset_id, *remote)
    assert gated.exit_code == 1, gated.stdout + gated.stderr
    assert "note:" not in gated.stderr
    recorded = api.get(version_url).json()["verdict"]
    assert (recorded["outcome"], recorded["runset_id"]) == ("fail", runset_id)
    assert any(reason.startswith("due_date: ") for reason in recorded["reasons"])
    assert recorded["recorded_by"] == "operator key"

    # the CLI's publish refuses the failed verdict; the console asks for the typed number
    refused_publish = _cli("publish", "--version", candidate, "--runset", runset_id, *remote)
    assert refused_publish.exit_code != 0
    assert "not publishing" in refused_publish.stderr
    number = api.get(version_url).json()["number"]
    page = browser.new_page()
    problems = watch(page)
    camera = Camera(tmp_path / "screens")
    page.goto(f"{service.base_url}/console/processors/{processor_id}")
    page.fill("#api_key", service.api_key)
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{service.base_url}/console/processors/{processor_id}")
    page.locator(f"tr#{candidate}").get_by_role("link", name="Publish…").click()
    verdict_box = page.locator("#failed-verdict")
    expect(verdict_box).to_contain_text("fail")
    expect(verdict_box).to_contain_text(runset_id)
    expect(verdict_box).to_contain_text("due_date: ")
    camera.capture(page, "publish-over-a-fail")
    page.fill("#confirm", str(number + 1))
    page.get_by_role("button", name="Publish despite the verdict").click()
    expect(page.locator("#publish-error")).to_contain_text(f"Type {number}")
    assert api.get(version_url).json()["status"] == "drafted"
    page.fill("#confirm", str(number))
    page.get_by_role("button", name="Publish despite the verdict").click()
    expect(page).to_have_url(re.compile(rf"/console/processors/{processor_id}\?published="))
    expect(page.locator(f"tr#{candidate}")).to_contain_text("over a fail verdict")
    # the only complaint: the refused publish's answer (422, the page saying what to type)
    assert problems == [
        "error: Failed to load resource: the server responded with a status of 422 "
        "(Unprocessable Entity)"
    ]
    page.close()

    version = api.get(version_url).json()
    assert version["status"] == "published"
    override = version["publish_override"]
    assert override["by"].startswith("console session ses_")
    assert override["at"] == version["published_at"]
    assert override["verdict"] == recorded
