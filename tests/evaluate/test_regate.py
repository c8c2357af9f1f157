"""Re-gating a run set under a new policy reuses its stored statistics: the same figures,
no comparator run, no service; new records or another spec score again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fieldwise.cli import main
from fieldwise.client import Client
from fieldwise.evaluate import Regated, RunsetSelection, regate_runsets
from tests.evaluate._runsets import write_runset

RESULTS = "results"


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    with pytest.raises(SystemExit) as exited:
        main([*args, "--results-dir", RESULTS, "--json"])
    out = capsys.readouterr()
    return int(exited.value.code or 0), json.loads(out.out) if out.out else {"err": out.err}


def _runset() -> Path:
    truth = {f"inv-{i:02d}": {"invoice_number": f"N{i}", "total": 100.0 + i} for i in range(30)}
    v2 = {
        n: ({**gt, "total": 0.0} if i % 10 == 0 else gt) for i, (n, gt) in enumerate(truth.items())
    }
    write_runset(Path(RESULTS), "rs_regate", truth, {"v1": truth, "v2": v2})
    return Path(RESULTS) / "rs_regate"


def _no_service() -> Client:
    raise AssertionError("the run set recorded its spec and gate: no service is asked")


def _regate(policy: Path) -> Regated:
    selection = RunsetSelection(("rs_regate",), results_dir=Path(RESULTS))
    return regate_runsets(selection, _no_service, policy_path=policy)


def test_a_new_policy_regates_from_the_stored_statistics(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = _runset()
    code, first = _main(capsys, "compare", "rs_regate")
    assert code == 0
    assert (folder / "statistics.json").is_file()
    code, again = _main(capsys, "compare", "rs_regate")
    assert again == first  # from the stored statistics: every figure identical

    lenient = tmp_path / "lenient.toml"
    lenient.write_text("[gate]\nmax_regression = 0.5\nmin_accuracy = 0.5\noverall_margin = 0.5\n")
    strict = tmp_path / "strict.toml"
    strict.write_text("[gate]\nmin_accuracy = 0.99\n")
    code_lenient, _ = _main(capsys, "gate", "rs_regate", "--policy", str(lenient))
    code_strict, _ = _main(capsys, "gate", "rs_regate", "--policy", str(strict))
    assert (code_lenient, code_strict) == (0, 1)

    # the gate reads the stored statistics, not the records: count every v2 cell wrong in
    # them and the figures follow, which only a reuse without rescoring can do
    path = folder / "statistics.json"
    stored = json.loads(path.read_text())
    for row in stored["statistics"]["outcomes"]:
        if row[0] == "v2":
            row[2] = [0, sum(row[2]), 0, 0, 0]  # OUTCOMES: correct, wrong, missed, ...
    path.write_text(json.dumps(stored))
    _, doctored = _main(capsys, "gate", "rs_regate", "--policy", str(lenient))
    assert "overall" in doctored, doctored
    accuracy = {r["version"]: r["field_accuracy"] for r in doctored["overall"]}
    assert accuracy["v2"] == 0.0

    # new records invalidate the store: scored again, from the records
    with (folder / "records.jsonl").open("a") as records:
        records.write("\n")
    _, rescored = _main(capsys, "compare", "rs_regate")
    assert rescored == first
    regated = _regate(strict)
    assert regated.source == "stored statistics"  # the compare above stored them anew
    assert regated.exit_code == code_strict
