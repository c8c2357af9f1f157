"""``[import.<vendor>]`` in dataset.toml: the docs' example loads and is applied (and recorded
in the provenance); a target the dataset does not declare is refused with its line."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from fieldwise._errors import DatasetValidationError
from fieldwise.datasets import Dataset, load_dataset
from tests.cli_main import run_main
from tests.imports import shapes

DOC = Path(__file__).resolve().parents[2] / "docs" / "import.md"


def _doc_snippet() -> str:
    blocks = re.findall(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.DOTALL)
    (snippet,) = [b for b in blocks if "[import.azure]" in b]
    return snippet


def _copy(invoices: Dataset, tmp_path: Path, extra: str) -> Path:
    root = tmp_path / "invoices"
    shutil.copytree(invoices.root, root)
    toml = root / "dataset.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "\n" + extra, encoding="utf-8")
    return root


def test_the_documented_override_is_applied_and_recorded(
    invoices: Dataset, truth: dict[str, Any], tmp_path: Path
) -> None:
    root = _copy(invoices, tmp_path, _doc_snippet())
    assert load_dataset(root).imports == {
        "azure": {
            "VendorAddressRecipient": "vendor_name",
            "VendorName": "",
            "Locale": "",
            "Items.Amount": "line_items.amount",
        }
    }
    folder = shapes.write_azure(
        {f: {"value": gt, "confidence": {}} for f, gt in truth.items()}, tmp_path / "azure"
    )
    first = sorted(folder.iterdir())[0]
    response = json.loads(first.read_text(encoding="utf-8"))
    fields = response["analyzeResult"]["documents"][0]["fields"]
    fields["VendorAddressRecipient"] = {"type": "string", "valueString": "Remit Desk"}
    first.write_text(json.dumps(response), encoding="utf-8")

    made = run_main("runsets", "import", str(root), "--version", f"azure={folder}", "--json")
    assert made.exit_code == 0, made.stderr
    shown = json.loads(made.stdout)
    (summary,) = shown["imported"]
    assert summary["unmapped"] == {}  # Locale and VendorName ignored on purpose
    assert summary["mapping"]["VendorName"] == ""
    assert summary["mapping"]["InvoiceTotal"] == "total"  # the defaults stay
    manifest = json.loads((Path(shown["directory"]) / "runset.json").read_text(encoding="utf-8"))
    recorded = manifest["provenance"]["imported"]["azure"]
    assert recorded["mapping"] == summary["mapping"]
    assert recorded["format"] == "azure"
    assert recorded["sha256"] == summary["sha256"]
    records = [
        json.loads(line)
        for line in (Path(shown["directory"]) / "records.jsonl").read_text().splitlines()
    ]
    named = {r["file"]: r["output"]["value"].get("vendor_name") for r in records}
    file = next(f for f in truth if shapes.stem(f) == first.stem)
    assert named[file] == "Remit Desk"  # from VendorAddressRecipient, not VendorName
    assert all(v is None for f, v in named.items() if f != file)


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ('[import.azure]\nInvoiceTotal = "grand_total"\n', "no such field or array column"),
        ("[import.azure]\nInvoiceTotal = 3\n", "must be a field name"),
        ('[import.oracle]\nTotal = "total"\n', "unknown vendor [import.oracle]"),
    ],
)
def test_a_bad_mapping_is_refused_with_its_line(
    table: str, expected: str, invoices: Dataset, tmp_path: Path
) -> None:
    root = _copy(invoices, tmp_path, table)
    count = len((root / "dataset.toml").read_text(encoding="utf-8").splitlines())
    with pytest.raises(DatasetValidationError) as raised:
        load_dataset(root)
    (problem,) = [p for p in raised.value.problems if expected in p]
    # the table's header (an unknown vendor) or the mapping's own line: the last two lines
    assert problem.split(":")[:2] in (
        ["dataset.toml", str(count - 1)],
        ["dataset.toml", str(count)],
    )


def test_fields_the_dataset_does_not_declare_are_listed_not_scored(
    invoices: Dataset, truth: dict[str, Any], tmp_path: Path
) -> None:
    rows = []
    for file, gt in sorted(truth.items()):
        output = {**gt, "notes": "looks fine", "line_items": [
            {**line, "sku": "X-1"} for line in gt["line_items"]
        ]}  # fmt: skip
        confidence = {"notes": 0.5, "line_items.0.sku": 0.5, "total": 0.9}
        rows.append(json.dumps({"file": file, "output": output, "confidence": confidence}))
    source = tmp_path / "llm.jsonl"
    source.write_text("\n".join(rows) + "\n", encoding="utf-8")
    made = run_main("runsets", "import", str(invoices.root), "--version", f"llm={source}", "--json")
    assert made.exit_code == 0, made.stderr
    shown = json.loads(made.stdout)
    assert shown["imported"][0]["unmapped"] == {"line_items.sku": 12, "notes": 12}
    records = (Path(shown["directory"]) / "records.jsonl").read_text(encoding="utf-8")
    outputs = [json.loads(line)["output"] for line in records.splitlines()]
    assert all(o["value"] == truth[f] for o, f in zip(outputs, sorted(truth), strict=True))
    assert all(set(o["metadata"]) == {"total"} for o in outputs)
    printed = run_main("runsets", "import", str(invoices.root), "--version", f"llm={source}")
    assert "unmapped fields, not imported (2): line_items.sku (12 documents), notes" in (
        printed.stdout
    )
