"""``fieldwise gate RUNSET --policy NEW.toml`` decides from the merged statistics stored with
the run set: under any policy the verdict equals a fresh compare + gate, with the cell store
deleted, no comparator run, and no service (the run set's base URL
answers nothing: the spec and gate come from what the run set recorded)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from fieldwise.cli import main
from fieldwise.compare import specs_from_recorded
from fieldwise.evaluate import analyze, resolve_policy
from fieldwise.report import verdict_json
from fieldwise.runner import load_runset
from tests.evaluate._runsets import write_runset
from tests.scale._data import LIST_SPEC, listed_outputs

RESULTS = "results"
POLICIES = {
    "default": "",
    "lenient": "[gate]\nmin_accuracy = 0.5\nmax_failed_run_share = 0.1\nalpha = 0.000001\n",
    "strict": "[gate]\nmin_accuracy = 0.99\nmargin = 0.01\nalpha = 0.2\n",
    "lists": "[gate]\nmax_row_recall_drop = 0.05\nmin_support = 50\nmax_failed_run_share = 1\n",
}


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    with pytest.raises(SystemExit) as exited:
        main([*args, "--results-dir", RESULTS, "--json"])
    out = capsys.readouterr()
    assert out.out, out.err
    return int(exited.value.code or 0), json.loads(out.out)


def _fresh(policy: Path) -> list[dict[str, Any]]:
    """The verdicts of a whole in-process comparison of the records, scored now."""
    runset = load_runset("rs_regate", Path(RESULTS))
    specs = specs_from_recorded(runset.manifest.arguments["eval_set_metadata"]["compare_spec"])
    chosen = resolve_policy(policy_path=policy, dataset_toml=None, recorded_gate=None, specs=specs)
    analysis = analyze(runset, specs, chosen, generated_at="2026-03-01T12:00:00Z")
    return [verdict_json(v) for v in analysis.verdicts]


def test_gate_decides_from_stored_statistics_without_cells_or_scoring(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    truth, outputs = listed_outputs(150, seed=9)
    # v2: v1 with a third of its wrong totals fixed (it may pass); v3 stays a regression
    v1 = outputs["v1"]
    outputs["v2"] = {
        name: {**out, "total": truth[name]["total"]} if out and i % 3 == 0 else out
        for i, (name, out) in enumerate(sorted(v1.items()))
    }
    write_runset(Path(RESULTS), "rs_regate", truth, outputs, spec=LIST_SPEC)
    folder = Path(RESULTS) / "rs_regate"
    code, scaled = _main(capsys, "compare", "rs_regate", "--executor", "in-process")
    assert code == 0
    assert scaled["source"]["partitions"] >= 1
    stored = json.loads((folder / "statistics.json").read_text())
    assert stored["statistics"]["candidates"] == ["v2", "v3"]

    # nothing left to read but the statistics: no cell store
    shutil.rmtree(folder / "cells")
    wanted = {}
    for name, text in POLICIES.items():
        policy = tmp_path / f"{name}.toml"
        policy.write_text(text)
        wanted[name] = _fresh(policy)
    statuses = {v["status"] for verdicts in wanted.values() for v in verdicts}
    assert {"pass", "fail"} <= statuses  # the policies decide differently

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("re-gating must not score cells")

    for name in ("score_cells", "partition_statistics", "runset_frame"):
        monkeypatch.setattr(f"fieldwise.evaluate._regate.{name}", refuse)
    for name in POLICIES:
        code, gated = _main(capsys, "gate", "rs_regate", "--policy", str(tmp_path / f"{name}.toml"))
        assert gated["verdicts"] == wanted[name], name
        assert code == gated["exit_code"]
    assert not (folder / "cells").exists()


def test_statistics_of_one_partition_equal_those_merged_from_shards(
    capsys: pytest.CaptureFixture[str],
) -> None:
    truth, outputs = listed_outputs(120, seed=4)
    write_runset(Path(RESULTS), "rs_regate", truth, outputs, spec=LIST_SPEC)
    folder = Path(RESULTS) / "rs_regate"
    # gate first: nothing stored, so it scores the records as one partition and stores that
    code, first = _main(capsys, "gate", "rs_regate")
    whole = json.loads((folder / "statistics.json").read_text())["statistics"]
    assert whole["partitions"] == 1
    # the sharded scoring of `compare --executor` stores the same integers, merged
    (folder / "statistics.json").unlink()
    _main(capsys, "compare", "rs_regate", "--executor", "in-process")
    merged = json.loads((folder / "statistics.json").read_text())["statistics"]
    assert {**merged, "partitions": 1} == whole
    code_again, again = _main(capsys, "gate", "rs_regate")
    assert (code_again, again) == (code, first)
