"""The report's labels equal their formulas: every headline figure of a real evaluation's
report (a small copy of the bundled invoices with the repository's two processor configs,
run through the CLI and the embedded service) is recomputed here from the comparison's
scored cells by the formula docs/comparison.md ("The report's headline") gives for it."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from fieldwise.cli import main
from fieldwise.datasets.generate import generate_dataset

REPO = Path(__file__).resolve().parents[2]
OK = ("correct", "both_empty")
EXPECTED = ("correct", "wrong", "missed")


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    out = capsys.readouterr()
    assert int(exited.value.code or 0) in (0, 1, 3), out.err
    return out.out


def _weighted_share(cells: pd.DataFrame, hits: tuple[str, ...], over: tuple[str, ...]) -> float:
    w = cells["weight"].astype(float)
    outcome = cells["outcome"].astype(str)
    return float((w * outcome.isin(hits)).sum() / (w * outcome.isin(over)).sum())


def _ok_units(cells: pd.DataFrame) -> pd.Series:
    """(field, item) -> every cell of the unit correct or both_empty."""
    ok = cells["outcome"].astype(str).isin(OK)
    return ok.groupby([cells["field"].astype(str), cells["item"].astype(str)]).all()


def test_each_headline_figure_is_its_documented_formula_of_the_cells(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "invoices"
    generate_dataset("invoices", count=10, seed=11, out_dir=root, scanned_share=0.0)
    shutil.copytree(
        REPO / "datasets" / "invoices" / "processor", root / "processor", dirs_exist_ok=True
    )
    out = _main(capsys, "evaluate", str(root), "--quiet", "--format", "json", "--out", "rep")
    runset = re.search(r"run set (rs_\w+)", out).group(1)  # type: ignore[union-attr]
    report: dict[str, Any] = json.loads(Path("rep/report.json").read_text(encoding="utf-8"))
    _main(capsys, "compare", runset, "--dataset", str(root), "--out", "tables")
    cells = pd.read_parquet("tables/cells.parquet")
    base, cand = report["baseline_id"], report["candidate_id"]
    mine = {v: cells.loc[cells["version"].astype(str) == v] for v in (base, cand)}

    # Cell accuracy, weighted: Σ w·(C + both_empty) / Σ w·cells
    every = ("correct", "wrong", "missed", "spurious", "both_empty")
    assert report["accuracy_baseline"] == pytest.approx(_weighted_share(mine[base], OK, every))
    assert report["accuracy_candidate"] == pytest.approx(_weighted_share(mine[cand], OK, every))
    # its delta: candidate - baseline
    assert report["delta"] == pytest.approx(
        _weighted_share(mine[cand], OK, every) - _weighted_share(mine[base], OK, every)
    )
    assert report["delta_low"] <= report["delta"] <= report["delta_high"]
    # All fields correct: documents whose every cell is ok / documents
    for version, key in ((base, "all_correct_baseline"), (cand, "all_correct_candidate")):
        ok = mine[version]["outcome"].astype(str).isin(OK)
        per_document = ok.groupby(mine[version]["item"].astype(str)).all()
        assert report[key] == pytest.approx(per_document.mean())
    assert report["documents"] == cells["item"].nunique() == 10
    # Flips: units ok in the baseline and not in the candidate, and the other way round
    before, after = _ok_units(mine[base]), _ok_units(mine[cand])
    units = before.index.union(after.index)
    before = before.reindex(units, fill_value=True)  # a unit with no cell is ok
    after = after.reindex(units, fill_value=True)
    assert report["total_regressions"] == int((before & ~after).sum())
    assert report["total_improvements"] == int((~before & after).sum())
    # Field accuracy per version (the gate's figure): Σ w·C / Σ w·E
    for row in report["versions"]:
        share = _weighted_share(mine[row["version"]], ("correct",), EXPECTED)
        assert row["field_accuracy"]["value"] == pytest.approx(share)
    # and per field, unweighted: C / E
    for row in report["fields"]:
        for role, version in (("baseline", base), ("candidate", cand)):
            these = mine[version].loc[mine[version]["field"].astype(str) == row["field"]]
            outcome = these["outcome"].astype(str)
            share = outcome.eq("correct").sum() / outcome.isin(EXPECTED).sum()
            assert row[role]["field_accuracy"] == pytest.approx(share)
