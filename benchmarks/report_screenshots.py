"""Screenshots of each section of a real report, for docs/reading-the-report.md.

Generates a small invoice dataset (text-layer PDFs), runs ``fieldwise evaluate`` on it through
the CLI and the embedded service (the repository's two processor configs: published vs
latest-draft), opens the HTML report in headless Chromium and saves one PNG per section under
``docs/img/report-<section>.png``, reduced to a 64-colour palette so each stays small.

Run: .venv/bin/python benchmarks/report_screenshots.py [--documents N] [--out docs/img]
(needs /usr/bin/chromium; a cold run takes a minute or two on two cores).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[1]
# the tests' own helper: the same real CLI run the browser tests make
sys.path.insert(0, str(REPO))
from tests.chromium import ARGS, CHROMIUM  # noqa: E402
from tests.report._evaluate import evaluate_invoices  # noqa: E402

# the sections docs/reading-the-report.md explains, in the report's order
SECTIONS = (
    "verdict",
    "accuracy",
    "summary",
    "changes",
    "fields",
    "regressions",
    "confidence",
    "suspects",
    "failed-runs",
    "items",
    "about",
)
WIDTH = 1000


def evaluate(work: Path, documents: int) -> Path:
    """Run ``fieldwise evaluate`` on a generated dataset; the path of its HTML report."""
    _, html, done = evaluate_invoices(work, documents)
    if done.returncode not in (0, 1, 3) or html.suffix != ".html":
        raise SystemExit(f"evaluate failed ({done.returncode}): {done.stderr or done.stdout}")
    return html


def shrink(path: Path) -> None:
    """A 64-colour palette PNG: text and flat colours survive, the file shrinks ~4x."""
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=12)
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "img")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        html = evaluate(Path(tmp), args.documents)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": WIDTH, "height": 900})
            page.goto(html.as_uri())
            page.wait_for_selector("body[data-items-ready='1']")
            for section in SECTIONS:
                box = page.locator(f"section#{section}")
                if box.count() == 0:
                    print(f"{section}: not in this report", file=sys.stderr)
                    continue
                target = args.out / f"report-{section}.png"
                box.screenshot(path=str(target))
                shrink(target)
                print(f"{target.relative_to(REPO)}: {target.stat().st_size // 1024} KiB")
            browser.close()


if __name__ == "__main__":
    main()
