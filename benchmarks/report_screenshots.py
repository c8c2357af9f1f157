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
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

from fieldwise.datasets.generate import generate_dataset

REPO = Path(__file__).resolve().parents[1]
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
# Debian's Chromium, headless, no background network (as tests/chromium.py)
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def evaluate(work: Path, documents: int) -> Path:
    """Run ``fieldwise evaluate`` on a generated dataset; the path of its HTML report."""
    root = work / "invoices"
    generate_dataset("invoices", count=documents, seed=11, out_dir=root, scanned_share=0.0)
    shutil.copytree(
        REPO / "datasets" / "invoices" / "processor", root / "processor", dirs_exist_ok=True
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("FIELDWISE_")}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from fieldwise.cli import main; main(sys.argv[1:])",
            "evaluate",
            str(root),
            "--quiet",
        ],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    found = re.search(r"report: (\S+)", done.stdout)
    if done.returncode not in (0, 1, 3) or found is None:
        raise SystemExit(f"evaluate failed ({done.returncode}): {done.stderr or done.stdout}")
    return work / found.group(1)


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
