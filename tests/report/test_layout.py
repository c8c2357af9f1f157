"""The HTML report at a phone's and a desktop's width in headless Chromium: screenshots, no
horizontal page overflow, the verdict with every version's figure and Δ on the first screen,
a long policy path inside the verdict box, field names never broken letter by letter."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from fieldwise.report import write_report
from tests.report._sample import sample_report

pytestmark = pytest.mark.slow

# a CI runner's path with no character a browser would break at
POLICY = "/home/runner/work/" + "x" * 90 + "/gate.toml"
# (width, height) of an iPhone 12-14 and of a laptop
SCREENS = {390: 844, 1440: 900}


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = sample_report()
    assert data.verdict is not None
    verdict = dataclasses.replace(data.verdict, policy_source=POLICY)
    folder = tmp_path_factory.mktemp("layout")
    paths = write_report(dataclasses.replace(data, verdict=verdict, verdicts=(verdict,)), folder)
    return paths["html"]


@pytest.mark.parametrize("width", sorted(SCREENS))
def test_report_fits_the_screen_with_the_verdict_first(
    browser: Browser, report: Path, width: int, tmp_path: Path
) -> None:
    height = SCREENS[width]
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(report.as_uri())
    page.wait_for_selector("body[data-items-ready='1']")
    for name, full in (("first", False), ("full", True)):
        shot = tmp_path / f"report-{width}-{name}.png"
        page.screenshot(path=str(shot), full_page=full)
        assert shot.stat().st_size > 5_000

    # no horizontal overflow of the page: wide tables scroll inside their own box
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")

    # the first screen: the verdict, then every version's value and each Δ
    def on_first_screen(selector: str) -> list[bool]:
        return page.locator(selector).evaluate_all(
            f"""els => els.map(e => {{ const b = e.getBoundingClientRect();
                 return b.width > 0 && b.left >= 0 && b.right <= {width}
                        && b.top >= 0 && b.bottom <= {height}; }})"""
        )

    assert on_first_screen("#verdict .badge") == [True]
    values = page.locator("#headline .figure dd").all_inner_texts()
    assert len(values) == 3  # baseline, candidate, Δ
    assert values[-1].endswith(" pp")
    assert all(v.endswith("%") for v in values[:2])
    assert on_first_screen("#headline .figure") == [True] * 3
    names = page.locator("#headline .figure dt").all_inner_texts()
    assert names == ["published v1", "draft v2", "Δ draft v2"]

    # the policy path wraps inside the verdict box
    page.locator("#verdict details summary").click()
    inside = page.evaluate(
        """() => { const box = document.querySelector('#verdict').getBoundingClientRect();
             const path = document.querySelector('#verdict summary .path');
             return [...path.getClientRects()].every(r => r.right <= box.right + 0.5); }"""
    )
    assert inside
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")

    # field names in the Items table stay on one line (never "tota / l")
    lines = page.locator("#items-body td:nth-child(2)").evaluate_all(
        """tds => tds.map(td => { const r = document.createRange(); r.selectNodeContents(td);
             return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; })"""
    )
    assert lines
    assert set(lines) == {1}
    page.close()
