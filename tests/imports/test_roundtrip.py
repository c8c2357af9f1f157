"""Acceptance: predictions in every format ``runsets import`` reads, made from the bundled
invoices' ground truth with the deliberate errors of conftest.py, give through
``fieldwise compare --json --out`` exactly the figures ``fieldwise.compare`` gives for the same
predictions, every table included (calibration and the threshold sweep use the confidences)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import fieldwise
from fieldwise.compare import parse_field_specs, read_frames, write_frames
from fieldwise.datasets import Dataset
from tests.cli_main import run_main
from tests.imports import shapes
from tests.imports.conftest import EXTRA, MISSING_INDEX, extra_prediction, run_outputs, with_errors

Writer = Callable[[dict[str, Any], Path], Path]

#: format -> (writer, file name, whether the format carries confidences)
FORMATS: dict[str, tuple[Writer, str, bool]] = {
    "jsonl": (shapes.write_jsonl, "predictions.jsonl", True),
    "csv": (shapes.write_csv, "predictions.csv", False),
    "parquet": (shapes.write_parquet, "predictions.parquet", False),
    "folder": (shapes.write_folder, "outputs", True),
    "azure": (shapes.write_azure, "azure", True),
    "google": (shapes.write_google, "google", True),
    "textract": (shapes.write_textract, "textract", True),
}

#: Columns that hold a value as the source wrote it: Textract's text "1,234.50" and a CSV
#: cell's "3" are the same predictions as 1234.5 and 3, scored alike, but not equal objects.
_AS_WRITTEN = {"predicted", "predicted_value", "candidate_value", "baseline_value", "value"}


def _frames_equal(imported: dict[str, pd.DataFrame], direct: dict[str, pd.DataFrame]) -> None:
    assert imported.keys() == direct.keys()
    for name, frame in direct.items():
        got = imported[name]
        assert list(got.columns) == list(frame.columns), name
        assert len(got) == len(frame), name
        kept = [c for c in frame.columns if c not in _AS_WRITTEN]
        pd.testing.assert_frame_equal(
            got[kept].reset_index(drop=True),
            frame[kept].reset_index(drop=True),
            check_exact=False,
            rtol=1e-9,
            check_dtype=False,
            check_categorical=False,
            obj=name,
        )


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_imported_figures_equal_direct_compare(
    fmt: str, invoices: Dataset, truth: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    write, name, has_confidence = FORMATS[fmt]
    predictions = with_errors(truth)
    source = write({**predictions, EXTRA: extra_prediction(truth)}, tmp_path / name)
    perfect = {f: {"value": gt, "confidence": {}} for f, gt in truth.items()}
    oracle = shapes.write_jsonl(perfect, tmp_path / "perfect.jsonl")
    results = tmp_path / "results"

    made = run_main(
        "runsets", "import", str(invoices.root),
        "--version", f"perfect={oracle}", "--version", f"{fmt}={source}",
        "--results-dir", str(results), "--json",
    )  # fmt: skip
    assert made.exit_code == 0, made.stderr
    shown = json.loads(made.stdout)
    imported = {v["name"]: v for v in shown["imported"]}[fmt]
    assert imported["format"] == fmt  # detected from the content
    missing = sorted(truth)[MISSING_INDEX]
    assert imported["missing"] == [missing]
    assert [u.split(" ")[0] for u in imported["unknown"]] == [
        EXTRA if fmt in ("jsonl", "csv", "parquet") else shapes.stem(EXTRA)
    ]
    assert shown["complete"] is True
    assert shown["statuses"] == {"failed": 1, "succeeded": 23}

    out = tmp_path / "tables"
    compared = run_main(
        "compare", shown["runset_id"], "--results-dir", str(results), "--json", "--out", str(out)
    )
    assert compared.exit_code == 0, compared.stderr
    figures = json.loads(compared.stdout)

    specs = parse_field_specs(invoices.fields, date_order=invoices.date_order, source="test")
    candidate = {
        f: {"value": p["value"], "confidence": p["confidence"] if has_confidence else {}}
        for f, p in predictions.items()
    }
    direct = fieldwise.compare(
        truth,
        {"imported:perfect": run_outputs(perfect), f"imported:{fmt}": run_outputs(candidate)},
        specs,
        baseline="imported:perfect",
    )
    write_frames(direct, tmp_path / "direct")
    _frames_equal(read_frames(out), read_frames(tmp_path / "direct"))

    # the JSON a user reads: every figure, row by row
    assert figures["baseline"] == "imported:perfect"
    assert figures["candidates"] == [f"imported:{fmt}"]
    order = ["imported:perfect", f"imported:{fmt}"]  # the document's: baseline first
    for key, frame in (("fields", direct.fields), ("overall", direct.overall)):
        rows = pd.DataFrame(figures[key])
        assert list(dict.fromkeys(rows["version"])) == order
        expected = frame[rows.columns].sort_values(
            "version", key=lambda v: v.map(order.index), kind="stable"
        )
        expected = expected.reset_index(drop=True)
        pd.testing.assert_frame_equal(
            rows, expected, check_dtype=False, check_exact=False, rtol=1e-9, obj=key
        )
    tests = pd.DataFrame(figures["tests"])
    significance = direct.significance[tests.columns].reset_index(drop=True)
    # JSON null reads back as NaN in a float column, where the frame holds <NA> (Int64)
    nullable = [c for c in significance.columns if str(significance[c].dtype) == "Int64"]
    pd.testing.assert_frame_equal(
        tests,
        significance.astype(dict.fromkeys(nullable, "float64")),
        check_dtype=False,
        check_exact=False,
        rtol=1e-9,
        obj="tests",
    )
    assert [f["document"] for f in figures["failed_runs"]] == [missing]
    # the deliberate errors are seen: not everything is correct, and confidences were used
    candidate_rows = direct.fields[direct.fields["version"] == f"imported:{fmt}"]
    assert candidate_rows["wrong"].sum() == 4  # total, vendor_name, invoice_number, a quantity
    assert candidate_rows["missed"].sum() > 0
    assert candidate_rows["spurious"].sum() == 1
    cells = direct.cells[direct.cells["version"] == f"imported:{fmt}"]
    assert cells["confidence"].notna().any() == has_confidence
