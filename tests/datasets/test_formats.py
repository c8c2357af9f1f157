"""Ground truth as people have it: Parquet, Label Studio exports, documents anywhere.

Each test writes the default tiny dataset (see conftest: invoice_number string, total currency,
seller.name text, line_items array) with one ground-truth source and reads it back.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from fieldwise._errors import DatasetValidationError
from fieldwise.datasets import load_dataset
from tests.datasets.conftest import DEFAULT_TOML, WriteDataset, declaring


def _problems(root: Path) -> list[str]:
    with pytest.raises(DatasetValidationError) as raised:
        load_dataset(root)
    return raised.value.problems


def _truths(root: Path) -> dict[str, tuple[dict[str, Any], str]]:
    return {i.file: (dict(i.ground_truth), i.source) for i in load_dataset(root).items}


def test_parquet_columns_keep_types_and_build_nested_values(write_dataset: WriteDataset) -> None:
    root = write_dataset(toml=DEFAULT_TOML + '\n[fields.paid_on]\ntype = "date"\n')
    rows = pa.table(
        {
            "file": ["documents/a.pdf", "documents/b.pdf"],
            "invoice_number": ["A-1", "B-2"],
            "total": pa.array(["RM 29.70", None]),
            "seller.name": ["Acme", "Bolt"],
            "paid_on": pa.array([dt.date(2024, 5, 3), None], type=pa.date32()),
            "line_items": pa.array(
                [[{"description": "pens", "amount": 2.5}], None],
                type=pa.list_(pa.struct([("description", pa.string()), ("amount", pa.float64())])),
            ),
        }
    )
    pq.write_table(rows, root / "ground_truth.parquet")
    truths = _truths(root)
    assert truths["documents/a.pdf"] == (
        {
            "invoice_number": "A-1",
            "total": "RM 29.70",
            "seller": {"name": "Acme"},
            "paid_on": "2024-05-03",
            "line_items": [{"description": "pens", "amount": 2.5}],
        },
        "ground_truth.parquet:row 1",
    )
    assert truths["documents/b.pdf"][0] == {"invoice_number": "B-2", "seller": {"name": "Bolt"}}


def test_parquet_with_one_object_column(write_dataset: WriteDataset) -> None:
    root = write_dataset(toml=declaring("total"))
    pq.write_table(
        pa.table(
            {
                "file": ["documents/a.pdf", "documents/c.pdf"],
                "ground_truth": [json.dumps({"total": 12.5}), json.dumps({"total": "1.021,91 €"})],
            }
        ),
        root / "ground_truth.parquet",
    )
    truths = _truths(root)
    assert truths["documents/a.pdf"][0] == {"total": 12.5}
    assert truths["documents/c.pdf"][0] == {"total": "1.021,91 €"}


def test_bad_parquet_rows_name_file_and_row(write_dataset: WriteDataset) -> None:
    root = write_dataset()
    pq.write_table(
        pa.table(
            {
                "file": ["documents/a.pdf", None, "documents/gone.pdf", "documents/c.pdf"],
                "total": ["12", "1", "2", "twelve"],
            }
        ),
        root / "ground_truth.parquet",
    )
    assert _problems(root) == [
        "ground_truth.parquet:row 2: the 'file' cell must be a non-empty string",
        "ground_truth.parquet:row 3: file not found: documents/gone.pdf",
        "ground_truth.parquet:row 4: column 'total': 'twelve' cannot be read as an amount",
    ]
    (root / "ground_truth.parquet").write_bytes(b"not parquet")
    (problem,) = _problems(root)
    assert problem.startswith("ground_truth.parquet:row 0: not a readable Parquet file")
    pq.write_table(pa.table({"name": ["x"]}), root / "ground_truth.parquet")
    assert _problems(root) == ["ground_truth.parquet:row 0: no 'file' column (columns: name)"]


def _task(task_id: int, data: dict[str, Any], *results: dict[str, Any], **extra: Any) -> Any:
    return {"id": task_id, "data": data, "annotations": [{"result": list(results)}], **extra}


def _choice(name: str, choice: str) -> dict[str, Any]:
    return {"from_name": name, "to_name": "doc", "type": "choices", "value": {"choices": [choice]}}


def _text(name: str, *lines: str, region: str | None = None) -> dict[str, Any]:
    result = {"from_name": name, "to_name": "doc", "type": "textarea", "value": {"text": lines}}
    return {**result, "id": region} if region else result


LS_SOURCE = """
[ground_truth]
file = "labels/export.json"

[ground_truth.fields]
number = "invoice_number"
amount = "total"
address = "address"
paid = "paid"
Seller = "seller.name"
"""
LS_TOML = (
    declaring("invoice_number", "total", "seller")
    + """
[fields.address]
type = "text"
fold_lines = true

[fields.paid]
type = "boolean"
"""
    + LS_SOURCE
)


def test_label_studio_export(write_dataset: WriteDataset) -> None:
    tasks = [
        # an upload: Label Studio prefixes the file name with 8 hex digits
        _task(
            1,
            {"pdf": "/data/upload/3/8f2a1b9c-a.pdf", "note": "x"},
            _text("number", "A-1"),
            _text("amount", "RM 29.70"),
            _text("address", "1 Main St,", "Leeds"),
            _choice("paid", "Yes"),
            _text("ignored", "not mapped"),
        ),
        # local files, and the OCR template: a transcription of a labelled rectangle
        _task(
            2,
            {"pdf": "/data/local-files/?d=scans%2Fb.png"},
            {
                "id": "r1",
                "from_name": "box",
                "type": "rectanglelabels",
                "value": {"x": 1, "rectanglelabels": ["Seller"]},
            },
            _text("transcription", "Bolt Ltd", region="r1"),
            {
                "id": "r2",
                "from_name": "box",
                "type": "rectanglelabels",
                "value": {"x": 2, "rectanglelabels": ["Seller"]},
            },
        ),
        # the last annotation that was not cancelled wins; a task with none is unlabelled
        {
            "id": 3,
            "data": {"pdf": "s3://bucket/invoices/c.pdf"},
            "annotations": [
                {"result": [_text("number", "OLD")]},
                {"result": [_text("number", "C-3")]},
                {"result": [_text("number", "CANCELLED")], "was_cancelled": True},
            ],
        },
        {"id": 4, "data": {"pdf": "documents/a.pdf"}, "annotations": []},
    ]
    root = write_dataset(
        toml=LS_TOML,
        documents=("documents/a.pdf", "scans/b.png", "documents/c.pdf"),
        files={"labels/export.json": json.dumps(tasks)},
    )
    truths = _truths(root)
    assert truths == {
        "documents/a.pdf": (
            {"invoice_number": "A-1", "total": "RM 29.70", "address": "1 Main St,\nLeeds",
             "paid": "true"},
            "labels/export.json:task 1",
        ),
        "scans/b.png": ({"seller": {"name": "Bolt Ltd"}}, "labels/export.json:task 2"),
        "documents/c.pdf": ({"invoice_number": "C-3"}, "labels/export.json:task 3"),
    }  # fmt: skip


def test_label_studio_problems_name_the_task(write_dataset: WriteDataset) -> None:
    tasks = [
        _task(7, {"pdf": "/data/upload/1/zz.pdf"}, _text("number", "A")),
        _task(8, {"pdf": "a.pdf"}, _choice("paid", "maybe")),
        _task(
            9,
            {"pdf": "b.pdf"},
            {"from_name": "paid", "type": "choices", "value": {"choices": ["Yes", "No"]}},
        ),
        "not a task",
    ]
    root = write_dataset(toml=LS_TOML, files={"labels/export.json": json.dumps(tasks)})
    assert _problems(root) == [
        "labels/export.json:task 4: a task must be an object with a 'data' object",
        "labels/export.json:task 7: no document of the dataset folder matches "
        "'/data/upload/1/zz.pdf'",
        "labels/export.json:task 8: field 'paid': 'maybe' is not a boolean (true/false)",
        "labels/export.json:task 9: 'paid': 2 choices; a field takes one",
    ]
    (root / "labels" / "export.json").write_text('[{"id": 1,\n "data": }]')
    (problem,) = _problems(root)
    assert problem.startswith("labels/export.json:2: invalid JSON")


def test_label_studio_document_key_and_ambiguous_names(write_dataset: WriteDataset) -> None:
    tasks = [_task(1, {"image": "x/a.pdf", "pdf": "documents/b.pdf"}, _text("number", "B"))]
    toml = declaring("invoice_number") + LS_SOURCE
    root = write_dataset(
        toml=toml,
        documents=("documents/a.pdf", "documents/b.pdf", "other/a.pdf"),
        files={"labels/export.json": json.dumps(tasks)},
    )
    (problem,) = _problems(root)
    assert "data keys 'image', 'pdf' all name documents" in problem
    (root / "dataset.toml").write_text(toml.replace("[ground_truth.fields]",
                                       'document = "pdf"\n[ground_truth.fields]'))  # fmt: skip
    assert _truths(root)["documents/b.pdf"][0] == {"invoice_number": "B"}
    tasks = [_task(1, {"pdf": "/data/upload/a.pdf"}, _text("number", "A"))]
    (root / "labels" / "export.json").write_text(json.dumps(tasks))
    (problem,) = _problems(root)
    assert problem == (
        "labels/export.json:task 1: 'pdf' matches several documents: documents/a.pdf, other/a.pdf"
    )


def test_ground_truth_table_problems(write_dataset: WriteDataset) -> None:
    line = json.dumps({"file": "documents/a.pdf", "ground_truth": {"total": 1}}) + "\n"
    for table, message in [
        ('file = "../x.json"', "[ground_truth] file must be a path inside the dataset folder"),
        ('file = "nope.json"', "[ground_truth] file not found: nope.json"),
        ('file = "gt.jsonl"\nformat = "xml"', "[ground_truth] format must be one of"),
        ('file = "gt.jsonl"\ncolour = 1', "unknown key 'colour' in [ground_truth]"),
    ]:
        root = write_dataset(
            toml=DEFAULT_TOML + f"\n[ground_truth]\n{table}\n", files={"gt.jsonl": line}
        )
        assert any(message in p for p in _problems(root)), (table, _problems(root))
        for child in sorted(root.rglob("*"), reverse=True):
            child.unlink() if child.is_file() else child.rmdir()
        root.rmdir()


def test_documents_anywhere_in_the_folder_but_never_outside(
    write_dataset: WriteDataset, tmp_path: Path
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "c.pdf").write_bytes(b"%PDF")
    lines = [
        {"file": "scans/2024/a.png", "ground_truth": {"total": 1}},
        {"file": "b.pdf", "ground_truth": {"total": 2}},
        {"file": "linked/c.pdf", "ground_truth": {"total": 3}},
        {"file": "../shared/c.pdf", "ground_truth": {"total": 4}},
    ]
    root = write_dataset(
        toml=declaring("total"),
        documents=("scans/2024/a.png", "b.pdf", "notes/readme.md"),
        jsonl="".join(json.dumps(x) + "\n" for x in lines),
    )
    (root / "linked").symlink_to(shared, target_is_directory=True)
    (root / "loop").symlink_to(root, target_is_directory=True)  # walked once, not forever
    leaves = "outside the dataset folder (set follow_symlinks = true in [dataset] to read links "
    assert _problems(root) == [
        f"ground_truth.jsonl:3: linked/c.pdf is a link to {shared / 'c.pdf'}, {leaves}"
        "that leave it)",
        "ground_truth.jsonl:4: file must be a path inside the dataset folder: ../shared/c.pdf",
        f"linked is a link to {shared}, {leaves}that leave it)",
    ]
    (root / "ground_truth.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines[:3]))
    # a folder linked to shared storage on purpose: read only when dataset.toml says so
    toml = (root / "dataset.toml").read_text()
    (root / "dataset.toml").write_text(
        toml.replace("[dataset]\n", "[dataset]\nfollow_symlinks = true\n")
    )
    dataset = load_dataset(root)
    assert [i.file for i in dataset.items] == ["b.pdf", "linked/c.pdf", "scans/2024/a.png"]
    assert dataset.warnings == ()  # notes/readme.md is no document
