"""Benchmark fieldwise.report at 50,000 documents x 20 fields (1,000,000 units, two versions).

Measures: building ReportData from a ComparisonResult and rendering the HTML (interleaved
repeats with the naive side, at 1/100, 1/10 and the full size for the growth exponents), the
HTML file size, and the time headless Chromium takes to show the first rows of the item table
and to load the page (interleaved repeats). Side by side, the naive alternative: the same unit
table pivoted and written with pandas ``DataFrame.to_html()`` (every row in the DOM), **on the
same comparison at the same size**. The default size is 5,000 documents, where the naive page
still loads in Chromium in reasonable time; ``--documents 50000`` is the full figure.

Run: .venv/bin/python benchmarks/report.py [--documents N] [--fields K] [--json]
(needs /usr/bin/chromium; the comparison itself is computed once and not part of the figures).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import Figure, emit, exponent, interleaved, own_peak_rss_mb, timed

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


def render_both(documents: int, fields: int) -> tuple[dict[str, Figure], dict[str, Any]]:
    """Interleaved repeats of fieldwise (build the report data, render the HTML) and the naive
    pivot + ``to_html`` on the same comparison; returns the figures and both outputs."""
    result = comparison(documents, fields)
    context = ReportContext(dataset="bench", generated_at="2026-01-01T00:00:00Z")
    env = make_environment()
    out: dict[str, Any] = {}

    def ours() -> None:
        out["data"] = build_report(result, context)
        out["html"] = render_html(out["data"], env)

    def theirs() -> None:
        out["naive"] = naive_html(result)

    figures = interleaved({"fieldwise": timed(ours), "naive": timed(theirs)}, REPEATS)
    return figures, out


REPEATS = 3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=5_000, help="both sides, same size")
    parser.add_argument("--fields", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    args = parser.parse_args()

    sizes = (args.documents // 100, args.documents // 10, args.documents)
    timings = {n: render_both(n, args.fields)[0] for n in sizes[:-1]}
    timings[args.documents], out = render_both(args.documents, args.fields)
    data, html, naive = out["data"], out["html"], out["naive"]
    t_md, _ = timed_once(lambda: render_markdown(data, make_environment()))
    t_junit, _ = timed_once(lambda: render_junit(data))
    t_json, _ = timed_once(lambda: render_json(data))

    with tempfile.TemporaryDirectory() as tmp:
        ours, theirs = Path(tmp) / "report.html", Path(tmp) / "naive.html"
        ours.write_text(html, encoding="utf-8")
        theirs.write_text(naive, encoding="utf-8")
        size, naive_size = ours.stat().st_size, theirs.stat().st_size
        loads: dict[str, list[tuple[float, ...]]] = {"fieldwise": [], "naive": []}
        for _ in range(REPEATS):  # interleaved
            loads["fieldwise"].append(first_rows(ours, "#items-body tr", filter_rows=True))
            loads["naive"].append(first_rows(theirs, "tbody tr"))

    def median(side: str, k: int) -> float:
        return statistics.median(f[k] for f in loads[side])

    fw, nv = timings[args.documents]["fieldwise"], timings[args.documents]["naive"]
    growth = {
        f"{side}_exponent_{sizes[-1] // n}x": exponent(
            (n, sizes[-1]), (timings[n][side].median, timings[sizes[-1]][side].median)
        )
        for side in ("fieldwise", "naive")
        for n in sizes[:-1]
    }
    units = len(data.items.code)
    mb = 1024 * 1024
    rss = own_peak_rss_mb()
    label = f"{args.documents:,} docs x {args.fields} fields ({units:,} units)"
    rows = [
        ("report build + render HTML", fw.median, nv.median, "s", fw, nv),
        (
            "report first rows in Chromium",
            median("fieldwise", 0),
            median("naive", 0),
            "s",
            None,
            None,
        ),
        (
            "report page loaded in Chromium",
            median("fieldwise", 1),
            median("naive", 1),
            "s",
            None,
            None,
        ),
        ("report HTML size", size / mb, naive_size / mb, "MB", None, None),
    ]
    for name, ours_v, theirs_v, unit, f_fig, n_fig in rows:
        ratio = ours_v / theirs_v
        spread = (
            f" fieldwise {f_fig.spread()} vs naive {n_fig.spread()};" if f_fig and n_fig else ""
        )
        emit(
            {
                "row": f"{name}, {label}",
                "fieldwise": round(ours_v, 4),
                "alternative": round(theirs_v, 4),
                "alternative_name": "pandas pivot + to_html",
                "unit": unit,
                "ratio": round(ratio, 3),
                "goal": "-",
                "met": None,
                "exponent": round(max(v for k, v in growth.items() if k.startswith("fieldwise")), 3)
                if f_fig
                else None,
                "peak_rss_mb": round(rss),
                **({k: round(v, 3) for k, v in growth.items()} if f_fig else {}),
            },
            f"{name}, {label}: fieldwise {ours_v:.3g} {unit} vs naive to_html {theirs_v:.3g} "
            f"{unit} ({ratio:.2f}x);{spread}"
            + (
                " "
                + ", ".join(
                    f"{k.replace('_exponent_', ' exponent at ')} {v:.2f}" for k, v in growth.items()
                )
                if f_fig
                else ""
            ),
            as_json=args.json,
        )
    emit(
        {
            "row": f"report other renderers, {label}",
            "markdown_s": t_md,
            "junit_s": t_junit,
            "json_s": t_json,
            "filter_all_units_s": median("fieldwise", 2),
            "peak_rss_mb": round(rss),
        },
        f"other renderers: markdown {t_md:.3f}s, junit {t_junit:.3f}s, json {t_json:.2f}s; "
        f"re-filter every unit in Chromium {median('fieldwise', 2) * 1000:.0f} ms; "
        f"peak RSS of this process {rss:.0f} MB (both sides, same process)",
        as_json=args.json,
    )


def timed_once(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


if __name__ == "__main__":
    main()
