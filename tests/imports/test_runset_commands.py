"""An imported run set under the commands that read run sets: ``runsets show``, the
partitioned executor (the cell store the Dask executor reads, run in-process here), ``export``
and ``merge`` (refused, as for any run set that is not a shard)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fieldwise.datasets import Dataset
from tests.cli_main import run_main
from tests.imports import shapes
from tests.imports.conftest import MISSING_INDEX, with_errors


def test_commands_read_an_imported_run_set(
    invoices: Dataset, truth: dict[str, Any], tmp_path: Path
) -> None:
    perfect = {f: {"value": gt, "confidence": {}} for f, gt in truth.items()}
    oracle = shapes.write_jsonl(perfect, tmp_path / "perfect.jsonl")
    textract = shapes.write_textract(with_errors(truth), tmp_path / "textract")
    made = run_main(
        "runsets", "import", str(invoices.root),
        "--version", f"perfect={oracle}", "--version", f"textract={textract}", "--json",
    )  # fmt: skip
    assert made.exit_code == 0, made.stderr
    runset = json.loads(made.stdout)["runset_id"]

    shown = json.loads(run_main("runsets", "show", runset, "--json").stdout)
    assert [v["requested"] for v in shown["versions"]] == ["perfect", "textract"]
    assert [v["version_id"] for v in shown["versions"]] == ["imported:perfect", "imported:textract"]
    assert shown["complete"] is True
    listed = json.loads(run_main("runsets", "list", "--json").stdout)
    assert [r["runset_id"] for r in listed] == [runset]

    in_memory = run_main("compare", runset, "--json")
    scaled = run_main("compare", runset, "--executor", "in-process", "--json")
    assert in_memory.exit_code == 0, in_memory.stderr
    assert scaled.exit_code == 0, scaled.stderr
    by_version = {r["version"]: r for r in json.loads(in_memory.stdout)["overall"]}
    for row in json.loads(scaled.stdout)["overall"]:
        expected = by_version[row["version"]]
        for key, value in row.items():
            assert expected[key] == pytest.approx(value), key

    exported = run_main("export", runset, "--format", "jsonl", "--out", "-")
    assert exported.exit_code == 0, exported.stderr
    rows = [json.loads(line) for line in exported.stdout.splitlines()]
    assert len(rows) == len(truth)
    missing = sorted(truth)[MISSING_INDEX]
    statuses = {r["file"]: r["textract.status"] for r in rows}
    assert statuses.pop(missing) == "failed"
    assert set(statuses.values()) == {"succeeded"}

    merged = run_main("runsets", "merge", runset)
    assert merged.exit_code == 2
    assert "is not a shard" in merged.stderr
