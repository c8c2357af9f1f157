"""The HTML report in a real headless Chromium: no console errors, filters change the rows."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page

from fieldwise.report import make_environment, write_report
from tests.report._sample import sample_report

pytestmark = pytest.mark.slow


def open_report(browser: Browser, folder: Path) -> tuple[Page, list[str]]:
    paths = write_report(sample_report(), folder, ["html"], make_environment())
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems: list[str] = []

    def on_console(msg: ConsoleMessage) -> None:
        if msg.type in ("error", "warning"):
            problems.append(f"{msg.type}: {msg.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda exc: problems.append(f"pageerror: {exc}"))
    # any request beyond the file itself would be a network dependency
    page.on(
        "request",
        lambda req: None if req.url.startswith("file://") else problems.append(req.url),
    )
    page.goto(paths["html"].as_uri())
    page.wait_for_selector("body[data-items-ready='1']")
    return page, problems


def rows(page: Page) -> int:
    return page.locator("#items-body tr").count()


def count_text(page: Page) -> str:
    return page.locator("#items-count").inner_text()


def test_report_opens_filters_and_looks_right(browser: Browser, tmp_path: Path) -> None:
    page, problems = open_report(browser, tmp_path)
    # 24 documents x 6 fields; the table opens on the 19 disagreements (10 regressed, 9 fixed)
    assert rows(page) == 19
    assert count_text(page) == "rows 1–19 of 19 (144 in all)"
    assert page.locator("#verdict .badge").inner_text() == "FAIL"
    assert page.locator("#confidence svg polyline").count() == 4

    page.select_option("#f-flip", "regressed")
    assert rows(page) == 10
    flips = page.locator("#items-body tr td:nth-child(5)").all_inner_texts()
    assert set(flips) == {"regressed"}

    page.select_option("#f-field", label="total")
    assert rows(page) == 1
    assert page.locator("#items-body tr td").all_inner_texts()[:2] == [
        "documents/inv-23.pdf",
        "total",
    ]

    page.select_option("#f-flip", "")
    page.select_option("#f-outcome", "b:wrong")
    assert count_text(page).startswith("rows 1–4 of 4 ")

    page.select_option("#f-outcome", "")
    page.select_option("#f-field", "")
    page.fill("#f-doc", "inv-07")
    page.wait_for_function("document.querySelectorAll('#items-body tr').length === 6")
    page.fill("#f-doc", "")
    page.wait_for_function("document.querySelectorAll('#items-body tr').length === 100")
    page.click("#items-next")
    assert count_text(page).startswith("rows 101–144 of 144")
    assert rows(page) == 44

    page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    assert (tmp_path / "report.png").stat().st_size > 10_000
    assert problems == []
    page.close()
