"""``/docs``: Swagger UI from installed files, in Debian's headless Chromium, with no request
leaving the service; the page is public, the OpenAPI document it renders is not."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import Browser, Request, expect

from fieldwise.service import RunningService
from tests.conftest import TEST_KEY
from tests.service.console._browser import Camera, watch

pytestmark = pytest.mark.slow


def test_page_and_assets_are_public_and_the_document_is_not(service: RunningService) -> None:
    with httpx.Client(base_url=service.base_url, timeout=60) as http:
        page = http.get("/docs")
        assert page.status_code == 200
        assert "swagger-ui-bundle.js" in page.text
        assert "default-src 'none'" in page.headers["content-security-policy"]
        css = http.get("/docs/static/swagger-ui.css")
        assert css.status_code == 200
        assert css.headers["content-type"].startswith("text/css")
        assert len(css.content) > 10_000  # the real stylesheet, not an empty file
        # only the listed files, by name: anything else is a 404 with the error body
        for name in ("swagger-ui.js.map", "..%2F..%2Fpyproject.toml", "__init__.py"):
            missing = http.get(f"/docs/static/{name}")
            assert missing.status_code == 404
            assert missing.json()["error"]["code"] == "not_found"
        assert http.get("/openapi.json").status_code == 401
        assert http.get("/openapi.json", headers={"x-api-key": TEST_KEY}).status_code == 200


def test_swagger_ui_renders_the_api_with_the_key_and_nothing_from_the_network(
    service: RunningService, browser: Browser, tmp_path: Path
) -> None:
    origin = urlsplit(service.base_url).netloc
    elsewhere: list[str] = []
    keyed: list[str] = []

    def on_request(request: Request) -> None:
        if urlsplit(request.url).netloc != origin:
            elsewhere.append(request.url)
        if request.url.endswith("/openapi.json") and request.headers.get("x-api-key"):
            keyed.append(request.headers["x-api-key"])

    page = browser.new_page()
    problems = watch(page)
    page.on("request", on_request)
    page.goto(f"{service.base_url}/docs")
    page.get_by_label("API key").fill(TEST_KEY)
    page.get_by_role("button", name="Load the API").click()
    # Swagger UI lists the operations once it has read the document with the key
    expect(page.locator(".opblock-summary-path", has_text="/processors").first).to_be_visible(
        timeout=30_000
    )
    assert page.locator(".opblock").count() >= 22  # the spec's 22 endpoints, at least
    Camera(tmp_path / "shots").capture(page, "docs")
    # the key went with the document's fetch, and stays in this tab only
    assert keyed == [TEST_KEY]
    assert page.evaluate("sessionStorage.getItem('fieldwise-api-key')") == TEST_KEY
    assert page.evaluate("localStorage.length") == 0
    # a reload keeps the key for this tab and renders again without asking
    page.reload()
    expect(page.locator(".opblock").first).to_be_visible(timeout=30_000)
    assert elsewhere == []
    assert problems == []
    page.close()
