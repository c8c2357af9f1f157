"""Benchmark fieldwise.report at 50,000 documents x 20 fields (1,000,000 units, two versions).

Measures: building ReportData from a ComparisonResult, rendering the HTML (and Markdown, JUnit,
JSON), the HTML file size, and the time headless Chromium takes to show the first rows of the
item table. Side by side, the naive alternative: the same unit table written with pandas
``DataFrame.to_html()`` (every row in the DOM), its size and Chromium's time to first row and to
a loaded page. The naive side runs on a tenth of the documents by default (at full size it takes
minutes and hundreds of MB), so its ratios understate the difference. Quote the ratios.

Run: .venv/bin/python benchmarks/report.py [--documents N] [--fields K]
(needs /usr/bin/chromium; the comparison itself is computed once and not part of the figures).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from playwright.sync_api import sync_playwright

from fieldwise.compare import FRAME_COLUMNS, ComparisonResult, compare, parse_field_specs
from fieldwise.report import (
    ReportContext,
    build_report,
    make_environment,
    render_html,
    render_json,
    render_junit,
    render_markdown,
)

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    """Best of ``repeat`` runs (the machine is shared: the minimum is the least disturbed)."""
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def comparison(documents: int, fields: int, seed: int = 0) -> ComparisonResult:
    """Two versions over ``documents`` x ``fields`` string/number values: baseline ~92% right,
    candidate ~94%, a few missing, random confidences."""
    rng = np.random.default_rng(seed)
    items = np.repeat([f"documents/inv-{i:06d}.pdf" for i in range(documents)], fields)
    names = np.tile([f"field_{k:02d}" for k in range(fields)], documents)
    n = documents * fields
    expected = np.array([f"V{i % 9973}" for i in range(n)], dtype=object)
    parts = []
    for version, right in (("v1", 0.92), ("v2", 0.94)):
        draw = rng.random(n)
        predicted = expected.copy()
        wrong = draw >= right
        predicted[wrong] = "X"
        predicted[draw >= 0.995] = None
        confidence = np.where(wrong, rng.uniform(0.3, 0.9, n), rng.uniform(0.6, 1.0, n))
        parts.append(
            pd.DataFrame(
                {
                    "item": items,
                    "field": names,
                    "version": version,
                    "expected": expected,
                    "predicted": predicted,
                    "confidence": confidence,
                }
            )
        )
    frame = pd.concat(parts, ignore_index=True).loc[:, list(FRAME_COLUMNS)]
    specs = parse_field_specs({f"field_{k:02d}": {"type": "string"} for k in range(fields)})
    return compare(frame, specs, baseline="v1", candidate="v2", n_bootstrap=1000)


def naive_html(result: ComparisonResult) -> str:
    """What one would write without fieldwise: the unit table straight into to_html()."""
    cells = result.cells.loc[:, ["item", "field", "version", "expected", "predicted", "outcome"]]
    wide = cells.pivot_table(
        index=["item", "field"],
        columns="version",
        values=["predicted", "outcome"],
        aggfunc="first",
        observed=True,
    )
    return "<html><body>" + wide.to_html() + "</body></html>"


def first_rows(path: Path, selector: str, *, filter_rows: bool = False) -> tuple[float, ...]:
    """Seconds until the first row of ``selector`` is shown, until the load event, and (with
    ``filter_rows``) for the item table to re-filter every unit to the regressed ones."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page()
        start = time.perf_counter()
        page.goto(path.as_uri(), wait_until="commit", timeout=600_000)
        page.wait_for_selector(selector, timeout=600_000)
        shown = time.perf_counter() - start
        page.wait_for_load_state("load", timeout=600_000)
        loaded = time.perf_counter() - start
        figures: tuple[float, ...] = (shown, loaded)
        if filter_rows:
            took = page.evaluate(
                """() => { const s = document.getElementById('f-flip');
                const t = performance.now(); s.value = 'regressed';
                s.dispatchEvent(new Event('change')); return performance.now() - t; }"""
            )
            figures += (float(took) / 1000,)
        browser.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=50_000)
    parser.add_argument("--fields", type=int, default=20)
    parser.add_argument("--naive-documents", type=int, default=5_000)
    args = parser.parse_args()

    t_compare, result = timed(lambda: comparison(args.documents, args.fields))
    context = ReportContext(dataset="bench", generated_at="2026-01-01T00:00:00Z")
    t_build, data = timed(lambda: build_report(result, context), repeat=2)
    env = make_environment()
    t_html, html = timed(lambda: render_html(data, env), repeat=2)
    t_md, _ = timed(lambda: render_markdown(data, env))
    t_junit, _ = timed(lambda: render_junit(data))
    t_json, _ = timed(lambda: render_json(data))
    small = comparison(args.naive_documents, args.fields)
    t_naive, naive = timed(lambda: naive_html(small))

    with tempfile.TemporaryDirectory() as tmp:
        ours, theirs = Path(tmp) / "report.html", Path(tmp) / "naive.html"
        ours.write_text(html, encoding="utf-8")
        theirs.write_text(naive, encoding="utf-8")
        size, naive_size = ours.stat().st_size, theirs.stat().st_size
        shown, loaded, refilter = first_rows(ours, "#items-body tr", filter_rows=True)
        naive_shown, naive_loaded = first_rows(theirs, "tbody tr")

    units = len(data.items.code)
    mb = 1024 * 1024
    print(
        f"report {args.documents:,} docs x {args.fields} fields ({units:,} units): "
        f"build {t_build:.2f}s, html {t_html:.2f}s ({size / mb:.1f} MB), md {t_md:.3f}s, "
        f"junit {t_junit:.3f}s, json {t_json:.2f}s; chromium first rows {shown:.2f}s, "
        f"load {loaded:.2f}s, filter all units {refilter * 1000:.0f} ms | "
        f"naive to_html at {args.naive_documents:,} docs "
        f"{t_naive:.2f}s ({naive_size / mb:.1f} MB), "
        f"first row {naive_shown:.2f}s, load {naive_loaded:.2f}s | "
        f"ratios: size {naive_size / size:.1f}x, build+render "
        f"{t_naive / (t_build + t_html):.1f}x, first rows {naive_shown / shown:.1f}x, "
        f"load {naive_loaded / loaded:.1f}x (compare itself {t_compare:.1f}s, not counted)"
    )


if __name__ == "__main__":
    main()
