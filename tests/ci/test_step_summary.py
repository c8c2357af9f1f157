"""With GITHUB_STEP_SUMMARY set, `gate` (and `evaluate`, see test_action.py) append the
Markdown summary to GitHub's job summary file, after whatever other steps wrote there."""

from __future__ import annotations

from pathlib import Path

import pytest

from fieldwise.cli import main
from tests.evaluate._runsets import write_runset


def _gate(*args: str) -> int:
    with pytest.raises(SystemExit) as exited:
        main(["gate", *args, "--results-dir", "results"])
    return int(exited.value.code or 0)


def test_gate_appends_its_summary_to_the_job_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    truth = {f"inv-{i:02d}": {"invoice_number": f"N{i}", "total": 100.0 + i} for i in range(12)}
    crashed = {**truth, "inv-03": None}
    write_runset(Path("results"), "rs_summary", truth, {"v1": truth, "v2": crashed})
    summary = tmp_path / "step-summary.md"
    summary.write_text("## an earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))

    assert _gate("rs_summary") == 1
    assert _gate("rs_summary") == 1
    capsys.readouterr()

    text = summary.read_text(encoding="utf-8")
    assert text.startswith("## an earlier step\n")
    assert text.count("FAIL") >= 2
    assert text.count("documents/inv-03.pdf") >= 2


def test_without_the_variable_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    truth = {f"inv-{i:02d}": {"invoice_number": f"N{i}"} for i in range(5)}
    write_runset(Path("results"), "rs_quiet", truth, {"v1": truth, "v2": truth})
    before = set(tmp_path.rglob("*"))
    # 5 documents: under the default policy's 10, so the verdict is inconclusive (it once
    # passed on nothing, then failed; too few documents is missing evidence, not harm)
    assert _gate("rs_quiet") == 3
    capsys.readouterr()
    assert not [p for p in set(tmp_path.rglob("*")) - before if p.suffix == ".md"]
