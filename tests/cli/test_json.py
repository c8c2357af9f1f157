"""Every command that prints results takes --json and prints one JSON document on standard
output (progress and warnings go to standard error), in the shapes of docs/json.md."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from fieldwise.cli import main
from fieldwise.datasets.generate import generate_dataset

REPO = Path(__file__).resolve().parents[2]


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    """Run ``fieldwise ARGS --json``; its exit code and its standard output parsed."""
    with pytest.raises(SystemExit) as exited:
        main([*args, "--json"])
    out = capsys.readouterr()
    code = int(exited.value.code or 0)
    assert code in (0, 1, 3), out.err
    return code, json.loads(out.out)


def test_every_result_command_prints_parseable_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "invoices"
    generate_dataset("invoices", count=6, seed=5, out_dir=root, scanned_share=0.0)
    shutil.copytree(
        REPO / "datasets" / "invoices" / "processor", root / "processor", dirs_exist_ok=True
    )

    _, valid = _json(capsys, "datasets", "validate", str(root))
    assert valid["valid"] is True
    assert valid["items"] == 6
    assert valid["fields"]["currency"]["type"]

    _, synced = _json(capsys, "sync", str(root), "--quiet", "--dry-run")
    assert synced["dry_run"] is True
    assert synced["counts"]["create"] == 6

    code, evaluated = _json(capsys, "evaluate", str(root), "--quiet", "--format", "json")
    assert evaluated["exit_code"] == code
    assert evaluated["status"] in ("pass", "fail", "inconclusive")
    assert len(evaluated["versions"]) == 2
    assert 0.0 <= evaluated["overall"][0]["field_accuracy"] <= 1.0
    assert Path(evaluated["reports"]["json"]).is_file()
    report = json.loads(Path(evaluated["reports"]["json"]).read_text(encoding="utf-8"))
    evaluate_only = ("dataset", "eval_set_id", "processor_id", "runset", "published", "reports",
                     "split", "trained_models")  # fmt: skip
    document = {k: v for k, v in evaluated.items() if k not in evaluate_only}
    assert report["document"] == document
    runset_id = evaluated["runset"]["runset_id"]

    _, listed = _json(capsys, "runsets", "list")
    assert [r["runset_id"] for r in listed] == [runset_id]
    _, shown = _json(capsys, "runsets", "show", runset_id)
    assert shown["complete"] is True
    assert shown["pairs"] == 12

    _, compared = _json(capsys, "compare", runset_id)
    assert compared["baseline"] == compared["versions"][0]
    assert {row["field"] for row in compared["tests"]} == {
        row["field"] for row in compared["fields"]
    }
    assert all(row["p_holm"] is None or 0.0 <= row["p_holm"] <= 1.0 for row in compared["tests"])

    gate_code, gated = _json(capsys, "gate", runset_id, "--dataset", str(root))
    assert gate_code == code == gated["exit_code"]
    assert {**gated, "source": None} == {**document, "source": None}  # one document
    assert [v["status"] for v in gated["verdicts"]] == [evaluated["verdicts"][0]["status"]]

    _, reported = _json(
        capsys, "report", runset_id, "--format", "md,junit", "-o", str(tmp_path / "r"),
        "--dataset", str(root),
    )  # fmt: skip
    assert {**reported, "reports": None} == {**document, "reports": None}
    assert Path(reported["reports"]["junit"]).is_file()

    _, ran = _json(
        capsys,
        "run",
        "--eval-set",
        evaluated["eval_set_id"],
        "--processor",
        evaluated["processor_id"],
        "--version",
        "published",
        "--quiet",
    )
    assert ran["total"] == 6
    assert ran["cached"] == 6

    _, planned = _json(capsys, "plan", str(root), "--runset", runset_id)
    assert planned["rows"]

    _, exported = _json(capsys, "export", runset_id, "--out", str(tmp_path / "t.csv"))
    assert exported == {
        "schema": 1,
        "path": str(tmp_path / "t.csv"),
        "format": "csv",
        "documents": 6,
    }


def test_runsets_without_any_run_set(capsys: pytest.CaptureFixture[str]) -> None:
    _, listed = _json(capsys, "runsets", "list")
    assert listed == []
    with pytest.raises(SystemExit) as exited:
        main(["runsets", "show", "rs_nope"])
    assert exited.value.code == 2
    assert "no run set" in capsys.readouterr().err
