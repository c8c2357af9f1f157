"""Pass means evidence (issue 39), through the CLI and the embedded service: under the default
policy a candidate identical to its baseline on 16 documents is inconclusive (exit 3) and says
how many documents would decide it, and the bundled invoices still fail on ``due_date``."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from fieldwise.cli import main
from fieldwise.datasets.generate import generate_dataset

REPO = Path(__file__).resolve().parents[2]


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    out = capsys.readouterr()
    return int(exited.value.code or 0), out.out, out.err


def test_sixteen_documents_and_a_candidate_identical_to_its_baseline_are_inconclusive(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The old default said PASS ("all N rules passed") on this: nothing regressed, but
    nothing was shown either."""
    root = tmp_path / "invoices"
    generate_dataset("invoices", count=16, seed=11, out_dir=root, scanned_share=0.0)
    processor = REPO / "datasets" / "invoices" / "processor"
    shutil.copytree(processor, root / "processor", dirs_exist_ok=True)
    # the baseline's config plus a label no document has: another version, the same output
    config = json.loads((processor / "v1.json").read_text(encoding="utf-8"))
    config["fields"][0]["labels"].append("Qxzqv Wjkxq")
    (root / "processor" / "v2.json").write_text(json.dumps(config), encoding="utf-8")

    code, out, err = _main(capsys, "evaluate", str(root), "--quiet")
    assert code == 3, out + err
    assert "verdict: INCONCLUSIVE" in out
    assert "rules passed" not in out
    reason = re.search(r"inconclusive: overall: .*", out)
    assert reason is not None, out
    assert "accuracy change +0.00 pp" in reason.group(0)
    assert "over 16 documents reaches below -2.00 pp" in reason.group(0)
    assert re.search(r"about \d+ documents would decide it", reason.group(0))

    runset_id = re.search(r"run set (rs_\w+)", out).group(1)  # type: ignore[union-attr]
    code_gate, out_gate, _ = _main(capsys, "gate", runset_id, "--json")
    assert code_gate == 3
    (verdict,) = json.loads(out_gate)["verdicts"]
    assert verdict["status"] == "inconclusive"
    (rule,) = [r for r in verdict["rules"] if r["rule"] == "overall_non_inferiority"]
    assert rule["status"] == "inconclusive"


def test_the_bundled_invoices_still_fail_on_due_date(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's main command (no --policy: the dataset has no [gate], so the default
    policy): due_date regresses significantly, and that fails under any policy."""
    code, out, err = _main(capsys, "evaluate", str(REPO / "datasets" / "invoices"), "--quiet")
    assert code == 1, out + err
    assert "verdict: FAIL" in out
    failing = [line for line in out.splitlines() if line.startswith("  - ")]
    assert failing == [
        "  - due_date: 30 regressed vs 5 fixed, Holm-adjusted p<0.001; "
        "a significant regression (alpha 0.05)"
    ], out
