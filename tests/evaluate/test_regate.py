"""Re-gating a run set under a new policy decides from its stored statistics: no comparator
run, no service; ``compare`` keeps nothing but gives the same figures every time; new records
or another spec compute the statistics again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fieldwise.cli import main
from fieldwise.client import Client
from fieldwise.evaluate import Regated, RunsetSelection, regate_runsets
from fieldwise.runner import RUNSET_ENTRIES
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


def _statistics_key(folder: Path) -> dict[str, Any]:
    stored = [p for p in folder.iterdir() if p.name.startswith("statistics")]
    assert len(stored) == 1
    key: dict[str, Any] = json.loads(stored[0].read_text())["key"]
    return key


def test_a_new_policy_regates_from_the_stored_statistics(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = _runset()
    before = sorted(p.name for p in folder.iterdir())
    code, first = _main(capsys, "compare", "rs_regate")
    assert code == 0
    assert sorted(p.name for p in folder.iterdir()) == before  # compare keeps nothing
    assert _main(capsys, "compare", "rs_regate")[1] == first

    lenient = tmp_path / "lenient.toml"
    lenient.write_text("[gate]\nmin_accuracy = 0.5\nmax_regression = 0.5\n")
    strict = tmp_path / "strict.toml"
    strict.write_text("[gate]\nmin_accuracy = 0.99\n")
    code_lenient, _ = _main(capsys, "gate", "rs_regate", "--policy", str(lenient))
    kept = {p.name for p in folder.iterdir()} - set(before)
    assert kept <= set(RUNSET_ENTRIES)
    assert len(kept) == 2  # the statistics and the verdict
    key = _statistics_key(folder)
    code_strict, _ = _main(capsys, "gate", "rs_regate", "--policy", str(strict))
    assert _regate(strict).source == "stored statistics"
    assert code_strict == 1
    assert code_lenient in (0, 3)  # pass, or inconclusive on 30 documents: not a failure

    # new records invalidate the statistics: computed again, from the records, and kept anew
    with (folder / "records.jsonl").open("a") as records:
        records.write("\n")
    regated = _regate(strict)
    assert regated.source == "scored now"
    assert regated.exit_code == code_strict
    assert _statistics_key(folder)["records"] != key["records"]
    assert _regate(strict).source == "stored statistics"
