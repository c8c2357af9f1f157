"""Too few documents is missing evidence, not evidence of harm (issue 39): under the default
policy (``min_documents = 10``) a run set of 6 documents is INCONCLUSIVE (exit 3), never a
FAIL, and says how many documents would decide it — in the CLI, its JSON, the saved verdict,
JUnit, summary.md and the HTML report alike."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from tests.cli_main import run_main
from tests.evaluate._runsets import write_runset

RESULTS = "results"
SHORTFALL = (
    "6 documents evaluated, fewer than the 10 required: at least 10 documents would decide it "
    "(4 more)"
)


def _docs(n: int) -> dict[str, dict[str, Any]]:
    return {f"inv-{i:02d}": {"invoice_number": f"N{i}", "total": 100.0 + i} for i in range(n)}


def test_fewer_documents_than_min_documents_is_inconclusive_everywhere(tmp_path: Path) -> None:
    truth = _docs(6)
    # the candidate is much better: only the document count stands between it and a pass
    worse = {name: {"invoice_number": "?", "total": 1.0} for name in truth}
    write_runset(Path(RESULTS), "rs_six", truth, {"v1": worse, "v2": truth})

    gated = run_main("gate", "rs_six", "--results-dir", RESULTS)
    assert gated.exit_code == 3, gated.stdout + gated.stderr
    assert "verdict: INCONCLUSIVE" in gated.stdout
    assert "FAIL" not in gated.stdout
    assert SHORTFALL in gated.stdout

    as_json = run_main("gate", "rs_six", "--results-dir", RESULTS, "--json")
    assert as_json.exit_code == 3
    (verdict,) = json.loads(as_json.stdout)["verdicts"]
    assert verdict["status"] == "inconclusive"
    (rule,) = [r for r in verdict["rules"] if r["rule"] == "min_documents"]
    assert rule["status"] == "inconclusive"
    saved = json.loads((Path(RESULTS) / "rs_six" / "verdict.json").read_text(encoding="utf-8"))
    assert (saved["status"], saved["passed"]) == ("inconclusive", False)
    assert f"inconclusive: {SHORTFALL}" in saved["reasons"]

    out = tmp_path / "report"
    made = run_main(
        "report", "rs_six", "--results-dir", RESULTS, "--format", "html,md,junit", "-o", str(out)
    )
    assert made.exit_code == 0, made.stdout + made.stderr  # report renders; gate decides
    assert "verdict: INCONCLUSIVE" in made.stdout
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "INCONCLUSIVE" in summary
    assert "FAIL" not in summary
    assert SHORTFALL in summary
    assert "beyond the margin" not in summary  # no margin is in doubt: only the count
    assert SHORTFALL in (out / "report.html").read_text(encoding="utf-8")
    junit = ET.parse(out / "junit.xml").getroot()
    (case,) = [c for c in junit.iter("testcase") if c.get("name") == "min_documents"]
    # inconclusive is not a failure in JUnit either: the case is marked, not failed
    assert case.find("failure") is None
    assert not [c for c in junit.iter("testcase") if c.find("failure") is not None]
