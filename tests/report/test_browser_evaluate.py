"""Acceptance: the report of a real ``fieldwise evaluate`` run, in headless Chromium at a phone's
and a desktop's width: nothing wider than the viewport outside a scroll container, version names
(not ids) in the headers, the forest plot with one mark per field, sorting and filtering work.

The dataset is a small copy of ``datasets/invoices`` (eight text-layer invoices, the repository's
two processor configs); the run goes through the CLI and the embedded service over HTTP.
"""

from __future__ import annotations

import json
import urllib.parse
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from fieldwise.report import report_from_json
from tests.report._evaluate import evaluate_invoices

pytestmark = pytest.mark.slow

# every element's box against the viewport, unless an ancestor scrolls sideways
OVERFLOWING = """(width) => {
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || (box.right <= width + 0.5 && box.left >= -0.5)) { continue; }
    let up = el.parentElement, contained = false;
    while (up) {
      const o = getComputedStyle(up).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") { contained = true; break; }
      up = up.parentElement;
    }
    if (!contained) { out.push(el.tagName + "#" + el.id + "." + el.className); }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    """Run ``fieldwise evaluate`` once; return the HTML report and its JSON twin (whose
    ``dataset_root`` key, added here, is the dataset's folder)."""
    root, html, done = evaluate_invoices(tmp_path_factory.mktemp("evaluate"), 8)
    assert done.returncode in (0, 1, 3), done.stderr  # 8 documents: under min_documents
    assert html.suffix == ".html", done.stdout
    saved = json.loads((html.parent / "report.json").read_text(encoding="utf-8"))
    saved["dataset_root"] = str(root)
    return html, saved


def _open(browser: Browser, html: Path, width: int) -> tuple[Page, list[str]]:
    page = browser.new_page(viewport={"width": width, "height": 900})
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"pageerror: {exc}"))
    page.on(
        "request",
        lambda req: None if req.url.startswith("file://") else problems.append(req.url),
    )
    page.goto(html.as_uri())
    page.wait_for_selector("body[data-items-ready='1']")
    return page, problems


@pytest.mark.parametrize("width", [390, 1440])
def test_real_report_fits_names_forest_sort_filter(
    browser: Browser, evaluated: tuple[Path, dict[str, object]], width: int, tmp_path: Path
) -> None:
    html, saved = evaluated
    page, problems = _open(browser, html, width)
    page.screenshot(path=str(tmp_path / f"report-{width}.png"), full_page=True)

    assert page.evaluate(OVERFLOWING, width) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    # names, not ids: the run set records "published" and "latest-draft"
    ids = {str(saved["baseline_id"]), str(saved["candidate_id"])}
    heads = page.locator("#accuracy thead th").all_inner_texts()
    heads += page.locator("#fields thead th").all_inner_texts()
    heads += page.locator("#items thead th").all_inner_texts()
    heads.append(page.locator("header h1").inner_text())
    text = " ".join(heads)
    assert "PUBLISHED" in text.upper()
    assert "LATEST-DRAFT" in text.upper()
    assert not any(i.lower() in text.lower() for i in ids)
    assert page.locator(f"#accuracy thead th[title='{saved['baseline_id']}']").count() == 1

    # ids appear only in tooltips and the provenance block ("About this report")
    shown = page.evaluate(
        """() => { const b = document.body.cloneNode(true);
          b.querySelector("#about").remove();
          b.querySelectorAll("script").forEach(s => s.remove());
          return b.textContent; }"""
    )
    assert not any(i in shown for i in ids)
    assert all(i in page.locator("#about").inner_text() for i in ids)

    # the forest plot: one mark per compared field, regressions first
    fields = page.locator("#fields-table tbody tr").count()
    assert fields == 14
    marks = page.locator("#forest circle.mark")
    assert marks.count() == fields
    assert len(set(marks.evaluate_all("ms => ms.map(m => m.dataset.field)"))) == fields
    ys = marks.evaluate_all("ms => ms.map(m => Number(m.getAttribute('cy')))")
    xs = marks.evaluate_all("ms => ms.map(m => Number(m.getAttribute('cx')))")
    assert ys == sorted(ys)
    assert xs == sorted(xs)

    # each version's recommended threshold is ringed on its accuracy-vs-automation curve
    assert page.locator("#coverage circle.threshold").count() == 2
    assert page.locator("#coverage polyline").count() == 2

    # sorting the Fields table by a heading, both ways
    page.locator("#fields-table thead th", has_text="support").click()
    support = [
        int(t) for t in page.locator("#fields-table tbody td:nth-child(2)").all_inner_texts()
    ]
    assert support == sorted(support)
    assert support[0] < support[-1]
    page.locator("#fields-table thead th", has_text="support").click()
    again = [int(t) for t in page.locator("#fields-table tbody td:nth-child(2)").all_inner_texts()]
    assert again == sorted(support, reverse=True)
    page.locator("#fields-table thead th").first.click()
    names = page.locator("#fields-table tbody td:nth-child(1)").evaluate_all(
        "tds => tds.map(td => td.dataset.sort)"
    )
    assert names == sorted(names, key=str.lower)

    # filtering the Fields table
    page.select_option("#fields-filter", "regressed")
    shown = page.locator("#fields-table tbody tr:not([hidden])")
    regressed = [int(t) for t in shown.locator("td:nth-child(7)").all_inner_texts()]
    assert 0 < len(regressed) < fields
    assert all(n > 0 for n in regressed)
    page.select_option("#fields-filter", "all")
    assert shown.count() == fields

    # the Items table opens on disagreements, and its filters and sort work
    assert page.locator("#f-flip").input_value() == "changed"
    flips = set(page.locator("#items-body td:nth-child(5)").all_inner_texts())
    assert flips
    assert flips <= {"regressed", "fixed"}
    page.select_option("#f-flip", "regressed")
    assert set(page.locator("#items-body td:nth-child(5)").all_inner_texts()) == {"regressed"}
    page.select_option("#f-flip", "")
    page.locator("#items-table th[data-key='field']").click()
    cells = page.locator("#items-body td:nth-child(2)").all_inner_texts()
    assert cells == sorted(cells)
    assert len(set(cells)) > 1
    page.locator("#items-table th[data-key='field']").click()
    cells = page.locator("#items-body td:nth-child(2)").all_inner_texts()
    assert cells == sorted(cells, reverse=True)

    assert problems == []
    page.close()


def test_documents_are_linked_with_small_thumbnails(
    browser: Browser, evaluated: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    # `fieldwise evaluate` itself links the report to the dataset's documents
    html, saved = evaluated
    data = report_from_json((html.parent / "report.json").read_text(encoding="utf-8"))
    root = Path(str(saved["dataset_root"]))
    page, problems = _open(browser, html, 1440)
    links = page.locator("#improvements td.doc a")
    assert links.count() == data.total_improvements > 0
    first = links.first
    # relative to the report's folder, so the link still works in a copied CI artifact
    href = urllib.parse.unquote(str(first.get_attribute("href")))
    assert not href.startswith("file:")
    assert not Path(href).is_absolute()
    target = (html.parent / href).resolve()
    assert target.is_file()
    assert target == (root / first.inner_text().strip()).resolve()
    thumbs = page.locator("#improvements img.thumb")
    assert thumbs.count() == links.count()
    page.wait_for_function(
        "[...document.querySelectorAll('img.thumb')].every(i => i.complete && i.naturalWidth > 0)"
    )
    sizes = thumbs.evaluate_all("ims => ims.map(i => [i.naturalWidth, i.src.length])")
    # each thumbnail is embedded once, however many rows show it
    html_text = html.read_text(encoding="utf-8")
    distinct = set(thumbs.evaluate_all("ims => ims.map(i => i.src)"))
    assert html_text.count("data:image/jpeg") == len(distinct) < thumbs.count()
    assert all(0 < width <= 120 and length < 16_000 for width, length in sizes)
    item_link = page.locator("#items-body td.doc a").first
    assert (html.parent / urllib.parse.unquote(str(item_link.get_attribute("href")))).is_file()
    page.screenshot(path=str(tmp_path / "linked.png"), full_page=True)
    assert problems == []
    page.close()
