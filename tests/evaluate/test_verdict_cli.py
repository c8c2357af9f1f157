"""The verdict through the CLI on run sets written to disk: exit codes 0 / 1 / 2 / 3, crashed
runs, empty sets, margins, refusing incomparable results, and three versions side by side."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fieldwise.cli import main
from tests.evaluate._runsets import write_runset

RESULTS = "results"


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main([*args[:1], *args[1:], "--results-dir", RESULTS])
    out = capsys.readouterr()
    return int(exited.value.code or 0), out.out, out.err


def _docs(n: int) -> dict[str, dict[str, Any]]:
    return {f"inv-{i:02d}": {"invoice_number": f"N{i}", "total": 100.0 + i} for i in range(n)}


def test_one_crashed_document_fails_the_gate_and_is_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    truth = _docs(20)
    outputs: dict[str, dict[str, Any]] = {"v1": dict(truth), "v2": dict(truth)}
    outputs["v2"]["inv-07"] = None  # crashed
    write_runset(Path(RESULTS), "rs_crash", truth, outputs)
    code, out, err = _main(capsys, "gate", "rs_crash")
    assert code == 1, err
    assert "verdict: FAIL" in out
    assert "documents/inv-07.pdf" in out
    assert "1 of 40 runs failed" in out


def test_an_empty_evaluation_set_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    write_runset(Path(RESULTS), "rs_empty", {}, {"v1": {}, "v2": {}})
    code, out, err = _main(capsys, "gate", "rs_empty")
    assert code == 2
    assert "PASS" not in out
    assert "empty evaluation set" in err
    assert len(err.strip().splitlines()) == 1


def test_a_margin_with_too_few_documents_is_inconclusive(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    truth = _docs(10)
    write_runset(Path(RESULTS), "rs_small", truth, {"v1": truth, "v2": truth})
    policy = tmp_path / "gate.toml"
    policy.write_text("[gate]\nmargin = {default = 0.02, total = 0.005}\n")
    code, out, _ = _main(capsys, "gate", "rs_small", "--policy", str(policy))
    assert code == 3
    assert "verdict: INCONCLUSIVE" in out
    assert "cannot rule out a regression beyond the margin" in out
    # the default policy: nothing regressed, but 10 documents show nothing either
    code, out, _ = _main(capsys, "gate", "rs_small")
    assert code == 3
    assert "documents would decide it" in out
    saved = json.loads((Path(RESULTS) / "rs_small" / "verdict.json").read_text())
    assert saved["status"] == "inconclusive"


def test_compare_refuses_a_relabelled_document_unless_forced(
    capsys: pytest.CaptureFixture[str],
) -> None:
    truth = _docs(6)
    write_runset(Path(RESULTS), "rs_a", truth, {"v1": truth})
    relabelled = {k: dict(v) for k, v in truth.items()}
    relabelled["inv-03"]["total"] = 999.0
    write_runset(Path(RESULTS), "rs_b", relabelled, {"v2": relabelled})
    code, out, err = _main(capsys, "compare", "rs_a", "rs_b")
    assert code == 2
    assert "document documents/inv-03.pdf field `total` relabelled (103.0 -> 999.0)" in err
    code, out, err = _main(capsys, "compare", "rs_a", "rs_b", "--force")
    assert code == 0, err
    assert out.startswith("FORCED despite: rs_a vs rs_b: ground truth differs")
    code, out, err = _main(capsys, "report", "rs_a", "rs_b", "--force", "-o", "rep")
    assert code == 0, err
    report = json.loads(Path("rep/report.json").read_text())
    assert report["provenance"]["forced"]
    assert "FORCED" in Path("rep/report.html").read_text()


def test_compare_refuses_a_changed_comparator_option(capsys: pytest.CaptureFixture[str]) -> None:
    truth = _docs(4)
    write_runset(Path(RESULTS), "rs_a", truth, {"v1": truth})
    spec = {
        "date_order": "YMD",
        "fields": {
            "invoice_number": {"type": "string"},
            "total": {"type": "currency", "atol": 0.5},
        },
    }
    write_runset(Path(RESULTS), "rs_b", truth, {"v2": truth}, spec=spec)
    code, _, err = _main(capsys, "compare", "rs_a", "rs_b")
    assert code == 2
    assert "`total` comparator option `atol` changed (null -> 0.5)" in err


def test_three_versions_give_two_comparisons_and_a_three_column_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    truth = _docs(12)
    worse = {k: {**v, "total": 1.0} if k < "inv-04" else v for k, v in truth.items()}
    write_runset(Path(RESULTS), "rs_3", truth, {"v1": truth, "v2": worse, "v3": truth})
    code, out, err = _main(capsys, "compare", "rs_3")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["field", "type", "support", "v1", "v2", "v3"]
    assert "v2 vs v1:" in lines
    assert "v3 vs v1:" in lines
    code, out, _ = _main(capsys, "gate", "rs_3")
    assert out.count("verdict: ") == 2
    assert "candidate v2 vs baseline v1" in out
    assert "candidate v3 vs baseline v1" in out
    code, _, err = _main(capsys, "report", "rs_3", "-o", "rep3", "--format", "json,html")
    assert code in (0, 1), err
    report = json.loads(Path("rep3/report.json").read_text())
    assert [c["candidate"] for c in report["comparisons"]] == ["v2", "v3"]
    assert [v["version"] for v in report["versions"]] == ["v1", "v2", "v3"]
    assert len(report["verdicts"]) == 2
