"""Acceptance: an imported version compared with a version the service ran, with a verdict.

How a user spells it: ``fieldwise evaluate D`` makes the service's run set, ``fieldwise
runsets import D --version azure=PATH`` the imported one (or ``runsets import EVALSET ...``
against the evaluation set evaluate synced), and ``report`` / ``gate`` read the two side by
side (``fieldwise report IMPORTED SERVICE --baseline azure --candidate latest-draft``): they
are comparable because both hold the dataset's ground truth and spec.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fieldwise.datasets.generate import generate_dataset
from fieldwise.service import RunningService
from tests.cli_main import MainResult, run_main
from tests.imports import shapes
from tests.imports.conftest import with_errors

_EXIT = {"pass": 0, "fail": 1, "inconclusive": 3}


def test_report_and_gate_an_imported_baseline_against_a_service_candidate(
    service: RunningService, tmp_path: Path
) -> None:
    root = tmp_path / "invoices"
    generate_dataset("invoices", count=12, seed=42, out_dir=root, scanned_share=0.0)
    remote = ["--base-url", service.base_url, "--api-key", service.api_key]

    def fieldwise(*args: str) -> MainResult:
        return run_main(*remote, *args)

    evaluated = fieldwise("evaluate", str(root), "--json")
    assert evaluated.exit_code in (0, 1, 3), evaluated.stderr
    service_runset = json.loads(evaluated.stdout)["runset"]["runset_id"]

    truth: dict[str, Any] = {}
    for line in (root / "ground_truth.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        truth[row["file"]] = row["ground_truth"]
    azure = shapes.write_azure(with_errors(truth), tmp_path / "azure")
    imported = fieldwise("runsets", "import", str(root), "--version", f"azure={azure}", "--json")
    assert imported.exit_code == 0, imported.stderr
    imported_runset = json.loads(imported.stdout)["runset_id"]
    imported_missing = json.loads(imported.stdout)["imported"][0]["missing"]

    out = tmp_path / "report"
    report = fieldwise(
        "report", imported_runset, service_runset,
        "--baseline", "azure", "--candidate", "latest-draft",
        "--out", str(out), "--format", "json,md",
    )  # fmt: skip
    assert report.exit_code == 0, report.stderr
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    verdict = data["verdict"]
    assert verdict["baseline"] == "imported:azure"
    assert verdict["candidate"] != "imported:azure"
    assert verdict["status"] in _EXIT
    assert data["provenance"]["forced"] == []  # comparable as they are: nothing forced
    assert "azure" in (out / "summary.md").read_text(encoding="utf-8")

    # against the evaluation set itself (what evaluate synced): its items, the same verdict
    eval_set = json.loads(evaluated.stdout)["eval_set_id"]  # ("invoices" is also a folder here)
    by_set = fieldwise("runsets", "import", eval_set, "--version", f"azure={azure}", "--json")
    assert by_set.exit_code == 0, by_set.stderr
    set_runset = json.loads(by_set.stdout)
    assert set_runset["eval_set_id"] == eval_set
    assert set_runset["imported"][0]["missing"] == imported_missing
    regated = fieldwise(
        "gate", set_runset["runset_id"], service_runset, "--baseline", "azure",
        "--candidate", "latest-draft", "--json",
    )  # fmt: skip
    assert regated.exit_code == _EXIT[verdict["status"]], regated.stderr

    gate = fieldwise(
        "gate", imported_runset, service_runset, "--baseline", "imported:azure",
        "--candidate", "latest-draft", "--json",
    )  # fmt: skip
    assert gate.exit_code == _EXIT[verdict["status"]], gate.stderr
    assert json.loads(gate.stdout)["verdicts"][0]["baseline"] == "imported:azure"
