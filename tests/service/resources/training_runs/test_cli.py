"""The loop on the command line, over a real service: train on one split, evaluate on the
other, refuse to evaluate a version on what it learned from (unless --force, said loudly)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fieldwise.cli import main
from fieldwise.runner import load_runset
from fieldwise.service import RunningService
from tests.service.resources.training_runs.conftest import INVOICES, mini_invoices


class _Cli:
    """``fieldwise`` against the test service: (exit code, stdout), stderr kept in ``err``."""

    def __init__(self, service: RunningService, capsys: pytest.CaptureFixture[str]) -> None:
        self.prefix = ["--base-url", service.base_url, "--api-key", service.api_key]
        self.capsys = capsys
        self.err = ""

    def __call__(self, *args: str) -> tuple[int, str]:
        with pytest.raises(SystemExit) as exited:
            main([*self.prefix, *args])
        captured = self.capsys.readouterr()
        self.err = captured.err
        return int(exited.value.code or 0), captured.out


def test_evaluating_on_the_training_split_is_refused(
    service: RunningService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _invoke = _Cli(service, capsys)
    root = mini_invoices(tmp_path / "mini", train=4, test=2)
    fast = ("--param", "max_iter=20", "--param", "calibration_folds=2")
    code, out = _invoke("train", str(root), "--split", "train", "--seed", "5", *fast, "--json")
    assert code == 0, out
    trained = json.loads(out)
    assert trained["split"] == "train"
    assert trained["items"] == 4
    assert trained["params"] == {"max_iter": 20, "calibration_folds": 2, "seed": 5}
    assert trained["version"]["status"] == "drafted"
    assert len(trained["model"]["sha256"]) == 64

    args = ("evaluate", str(root), "--candidate", "trained:latest", "--format", "json")
    code, out = _invoke(*args, "--split", "train")
    assert code == 2
    assert _invoke.err.strip().splitlines()[-1:] == [
        f"error: refusing to evaluate trained:latest ({trained['version']['id']}) on items it was "
        "trained on: 4 of the 4 items of split 'train' overlap (its training split: 'train'); "
        "evaluate it on held-back items (--split test), or pass --force to do it anyway (the "
        "report says so)"
    ]
    code, out = _invoke(*args, "--split", "train", "--force", "--json")
    assert code in (0, 1, 3), out
    forced = json.loads(out)["forced"]
    assert any("was evaluated on 4 item(s) it was trained on (split 'train')" in f for f in forced)

    # a run on the held-back split is not refused, and --split in compare narrows a run set
    code, out = _invoke(
        "run", "--eval-set", "mini", "--processor", "invoice-extractor",
        "--version", "published", "--version", "trained:latest", "--json",
    )  # fmt: skip
    assert code == 2  # all items include the training split
    code, out = _invoke(
        "run", "--eval-set", "mini", "--processor", "invoice-extractor",
        "--version", "published", "--version", "trained:latest", "--split", "test", "--json",
    )  # fmt: skip
    assert code == 0, out
    runset = load_runset(json.loads(out)["runset_id"])
    assert {i.split for i in runset.items} == {"test"}
    assert runset.manifest.arguments["split"] == "test"
    code, out = _invoke("compare", runset.manifest.runset_id, "--split", "train")
    assert code == 2
    assert "has no split 'train' (its splits: test)" in _invoke.err


def test_train_on_invoices_then_evaluate_on_test(
    service: RunningService, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's loop on the bundled dataset: train on its train split, evaluate on test."""
    _invoke = _Cli(service, capsys)
    fast = ("--param", "max_iter=30", "--param", "calibration_folds=2")
    code, out = _invoke("train", str(INVOICES), "--split", "train", "--seed", "7", *fast, "--json")
    assert code == 0, out
    trained = json.loads(out)
    assert trained["items"] == 44
    version_id, sha = trained["version"]["id"], trained["model"]["sha256"]

    code, out = _invoke(
        "evaluate", str(INVOICES), "--candidate", "trained:latest", "--split", "test",
        "--format", "json", "--json",
    )  # fmt: skip
    # a pass on evidence (the dataset has no [gate]: the default policy): on 16 test documents
    # the paired interval of the overall change lies far above -2 pp
    assert code == 0, out
    evaluation = json.loads(out)
    (overall,) = [
        r for r in evaluation["verdicts"][0]["rules"] if r["rule"] == "overall_non_inferiority"
    ]
    assert overall["status"] == "pass", overall
    assert overall["observed"] > 0, overall  # the interval's lower bound
    assert "over 16 documents lies above -2.00 pp" in overall["message"]
    assert evaluation["split"] == "test"
    assert evaluation["exit_code"] == code
    assert [evaluation["labels"][v] for v in evaluation["versions"]] == [
        "published",
        "trained:latest",
    ]
    assert evaluation["versions"][1] == version_id
    assert evaluation["verdicts"][0]["status"] == evaluation["status"]
    assert evaluation["trained_models"][version_id]["model_sha256"] == sha
    assert evaluation["forced"] == []

    runset = load_runset(evaluation["runset"]["runset_id"])
    assert [v.version_id for v in runset.manifest.versions][1] == version_id
    assert runset.manifest.arguments["trained_models"][version_id]["model_sha256"] == sha
    assert len(runset.items) == 16
    assert {i.split for i in runset.items} == {"test"}
    report = json.loads(Path(evaluation["reports"]["json"]).read_text())
    assert report["status"] == evaluation["status"]
