"""``fieldwise evaluate`` on a small generated invoice dataset, through the real CLI and the
embedded service: for the browser tests and benchmarks/report_screenshots.py."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def evaluate_invoices(
    work: Path, count: int
) -> tuple[Path, Path, subprocess.CompletedProcess[str]]:
    """Generate ``count`` text-layer invoices under ``work/invoices`` with the repository's two
    processor configs (published vs latest-draft) and run ``fieldwise evaluate`` on them in
    ``work``; the dataset folder, the HTML report's path (``work`` itself when the output
    names none) and the finished process."""
    from fieldwise.datasets.generate import generate_dataset

    root = work / "invoices"
    generate_dataset("invoices", count=count, seed=11, out_dir=root, scanned_share=0.0)
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
    return root, work / found.group(1) if found else work, done
