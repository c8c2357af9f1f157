"""``fieldwise export`` on a real run set made by ``fieldwise evaluate`` with the embedded service.

The dataset: three text invoices ``Invoice No: INV-0k`` / ``Total: RM k.50`` with ground truth
written as people write it (``"total": "RM k.50"``) and line items. The baseline config extracts
only the invoice number, the candidate also the total, so per document the total is ``missed``
for the baseline and ``correct`` for the candidate (the "RM" truth equals the number).
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.cli_main import run_main

NUMBER = {"name": "invoice_number", "type": "string", "labels": ["Invoice No"]}
TOTAL = {"name": "total", "type": "currency", "labels": ["Total"]}
TOML = """\
[dataset]
name = "rm-invoices"

[fields]
invoice_number = { type = "string" }
total = { type = "currency" }
items = { type = "array", columns = { amount = { type = "currency" } } }

[processor]
name = "rm-extractor"
baseline = "processor/v1.json"
candidate = "processor/v2.json"
"""


@pytest.fixture(scope="module")
def runset(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The working folder (holding .fieldwise/) and the id of the run set evaluate wrote."""
    work = tmp_path_factory.mktemp("export")
    root = work / "ds"
    (root / "documents").mkdir(parents=True)
    (root / "processor").mkdir()
    (root / "dataset.toml").write_text(TOML)
    (root / "processor" / "v1.json").write_text(json.dumps({"engine": "rules", "fields": [NUMBER]}))
    (root / "processor" / "v2.json").write_text(
        json.dumps({"engine": "rules", "fields": [NUMBER, TOTAL]})
    )
    lines = []
    for k in range(3):
        name = f"documents/inv-{k}.txt"
        (root / name).write_text(f"Invoice No: INV-0{k}\nTotal: RM {k}.50\n")
        truth = {"invoice_number": f"INV-0{k}", "total": f"RM {k}.50", "items": [{"amount": k}]}
        lines.append(json.dumps({"file": name, "ground_truth": truth}))
    (root / "ground_truth.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(work)
        result = run_main("evaluate", str(root), "--quiet")
    assert result.exit_code in (0, 1, 3), result.stderr  # 3 documents: under min_documents
    found = re.search(r"run set (rs_\w+)", result.stdout)
    assert found is not None, result.stdout
    return work, found.group(1)


def test_parquet_keeps_types_and_outcomes(
    runset: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    work, runset_id = runset
    monkeypatch.chdir(work)
    result = run_main("export", runset_id, "--format", "parquet", "--out", "out/x.parquet")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "wrote 3 documents to out/x.parquet\n"
    table = pq.read_table(work / "out" / "x.parquet")
    assert table.column_names == [
        "item", "file", "published.status", "latest-draft.status",
        "invoice_number.expected",
        "invoice_number.published", "invoice_number.published.outcome",
        "invoice_number.latest-draft", "invoice_number.latest-draft.outcome",
        "items.expected",
        "items.published", "items.published.outcome",
        "items.latest-draft", "items.latest-draft.outcome",
        "total.expected",
        "total.published", "total.published.outcome",
        "total.latest-draft", "total.latest-draft.outcome",
    ]  # fmt: skip
    rows = table.to_pylist()
    assert [r["file"] for r in rows] == [f"documents/inv-{k}.txt" for k in range(3)]
    assert table.schema.field("total.expected").type == pa.string()
    assert table.schema.field("total.latest-draft").type == pa.float64()
    assert [r["total.expected"] for r in rows] == ["RM 0.50", "RM 1.50", "RM 2.50"]
    assert [r["total.latest-draft"] for r in rows] == [0.5, 1.5, 2.5]
    assert {r["total.latest-draft.outcome"] for r in rows} == {"correct"}
    assert [r["total.published"] for r in rows] == [None, None, None]
    assert {r["total.published.outcome"] for r in rows} == {"missed"}
    assert {r["invoice_number.published.outcome"] for r in rows} == {"correct"}
    assert {r["items.latest-draft.outcome"] for r in rows} == {"missed"}
    assert json.loads(rows[2]["items.expected"]) == [{"amount": 2}]
    assert {r["published.status"] for r in rows} == {"succeeded"}


def test_csv_and_jsonl(runset: tuple[Path, str], monkeypatch: pytest.MonkeyPatch) -> None:
    work, runset_id = runset
    monkeypatch.chdir(work)
    result = run_main("export", runset_id, "--format", "csv", "--out", "-")
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["total.latest-draft"] for r in rows] == ["0.5", "1.5", "2.5"]
    assert [r["total.published"] for r in rows] == ["", "", ""]
    assert rows[0]["items.expected"] == '[{"amount": 0}]'

    result = run_main("export", runset_id, "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    lines = (work / f"{runset_id}.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    assert first["items.expected"] == [{"amount": 0}]
    assert first["total.expected"] == "RM 0.50"
    assert first["total.published"] is None


def test_export_has_help() -> None:
    result = run_main("export", "--help")
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: fieldwise export [OPTIONS] RUNSET")


def test_bad_inputs_exit_2_with_one_line(
    runset: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    work, runset_id = runset
    monkeypatch.chdir(work)
    (work / "x.csv").write_text("a file where a folder would be")
    for args, message in [
        (("rs_missing",), "error: no run set at"),
        ((runset_id, "--out", "x.csv/y.csv"), "error: cannot write x.csv/y.csv: "),
        ((runset_id, "--format", "xlsx"), "Invalid value for '--format'"),
    ]:
        result = run_main("export", *args)
        assert result.exit_code == 2, args
        assert message in result.stderr
        if message.startswith("error: "):
            assert result.stderr.count("\n") == 1, result.stderr
