"""``fieldwise datasets init``: scaffold dataset.toml from documents and labels.

The generated folder (8 invoices, seed 5) ships its own dataset.toml; init, run on the folder
without it, must guess the same type for every field and array column. The hand-made folder has
receipts with labels as people write them: "RM 29.70" totals, day-first dates, a two-value
currency, yes/no, spaced IBANs and two-line addresses.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from fieldwise.datasets import load_dataset
from fieldwise.datasets.generate import generate_dataset
from tests.cli_main import run_main


def _types(toml: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """Field (and array column) types of a dataset.toml, by dotted name."""
    out: dict[str, str] = {}
    for name, table in toml.items():
        if "type" not in table:
            out.update(_types(table, f"{prefix}{name}."))
            continue
        out[f"{prefix}{name}"] = table["type"]
        for column, spec in table.get("columns", {}).items():
            out[f"{prefix}{name}[].{column}"] = spec["type"]
    return out


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gen") / "invoices"
    generate_dataset("invoices", count=8, seed=5, out_dir=root, scanned_share=0.0)
    return root


def test_init_guesses_the_types_of_a_generated_dataset(generated: Path) -> None:
    shipped = tomllib.loads((generated / "dataset.toml").read_text())
    (generated / "dataset.toml").rename(generated / "shipped.toml")
    try:
        result = run_main("datasets", "init", str(generated))
        assert result.exit_code == 0, result.stderr
        assert result.stdout.startswith(f"wrote {generated / 'dataset.toml'} from ground_truth")
        written = tomllib.loads((generated / "dataset.toml").read_text())
        assert _types(written["fields"]) == _types(shipped["fields"])
        seen = {i.ground_truth["currency"] for i in load_dataset(generated).items}
        assert written["fields"]["currency"]["values"] == sorted(seen)
        assert len(load_dataset(generated).items) == 8

        result = run_main("datasets", "init", str(generated))
        assert result.exit_code == 2
        assert result.stderr == (
            f"error: {generated / 'dataset.toml'} exists; pass --force to overwrite it\n"
        )
        assert run_main("datasets", "init", str(generated), "--force").exit_code == 0
    finally:
        (generated / "shipped.toml").replace(generated / "dataset.toml")


RECEIPTS = [
    ("scans/r1.png", "Kedai Runcit Ah Seng", "03/05/2024", "RM 29.70", "MYR", "yes",
     "DE89 3704 0044 0532 0130 00", "1 Jalan Besar,\nKuala Lumpur"),
    ("scans/r2.png", "Bolt Hardware Sdn Bhd", "13/05/2024", "RM 8.20", "MYR", "no",
     "DE89370400440532013000", "2 Jalan Kecil\nPetaling Jaya"),
    ("scans/r3.png", "Bolt Hardware Sdn Bhd", "14/05/2024", "$3.00", "SGD", "ja", None, None),
    ("scans/r4.png", "Kedai Runcit Ah Seng", "15/05/2024", "RM 1,021.91", "MYR", "no", None,
     None),
]  # fmt: skip
EXPECTED_TYPES = {
    "address": ("text", {"fold_lines": True}),
    "currency": ("enum", {"values": ["MYR", "SGD"]}),
    "date": ("date", {}),
    "iban": ("string", {"ignore_spaces": True}),
    "paid": ("boolean", {}),
    "seller": ("text", {}),
    "total": ("currency", {}),
}


def _receipts(tmp_path: Path) -> Path:
    root = tmp_path / "receipts"
    for row in RECEIPTS:
        (root / row[0]).parent.mkdir(parents=True, exist_ok=True)
        (root / row[0]).write_bytes(b"\x89PNG " + row[0].encode())
    return root


def _fields(root: Path) -> dict[str, tuple[str, dict[str, Any]]]:
    fields = tomllib.loads((root / "dataset.toml").read_text())["fields"]
    return {k: (v.pop("type"), v) for k, v in fields.items()}


def test_init_from_parquet_labels_outside_the_folder(tmp_path: Path) -> None:
    root = _receipts(tmp_path)
    names = ("file", "seller", "date", "total", "currency", "paid", "iban", "address")
    table = pa.table({n: [row[i] for row in RECEIPTS] for i, n in enumerate(names)})
    pq.write_table(table, tmp_path / "labels.parquet")
    result = run_main("datasets", "init", str(root), "--labels", str(tmp_path / "labels.parquet"))
    assert result.exit_code == 0, result.stderr
    assert "(copied into the folder)" in result.stdout
    assert (root / "labels.parquet").is_file()
    assert _fields(root) == EXPECTED_TYPES
    toml = tomllib.loads((root / "dataset.toml").read_text())
    assert toml["dataset"] == {"name": "receipts", "date_order": "DMY"}
    assert toml["ground_truth"] == {"file": "labels.parquet"}
    assert run_main("datasets", "validate", str(root)).exit_code == 0


def test_init_from_a_label_studio_export(tmp_path: Path) -> None:
    root = _receipts(tmp_path)
    names = ("seller", "date", "total", "currency", "paid", "iban", "address")
    tasks = []
    for n, row in enumerate(RECEIPTS, start=1):
        results: list[dict[str, Any]] = [
            {"from_name": name, "to_name": "image", "type": "textarea",
             "value": {"text": value.split("\n")}}
            for name, value in zip(names, row[1:], strict=True)
            if value is not None and name not in ("currency", "paid")
        ]  # fmt: skip
        results += [
            {"from_name": name, "to_name": "image", "type": "choices", "value": {"choices": [v]}}
            for name, v in (("currency", row[4]), ("paid", row[5]))
        ]
        upload = f"/data/upload/1/{n:08x}-{Path(row[0]).name}"
        tasks.append({"id": n, "data": {"ocr": upload}, "annotations": [{"result": results}]})
    labels = root / "labelstudio" / "export.json"
    labels.parent.mkdir()
    labels.write_text(json.dumps(tasks))
    result = run_main("datasets", "init", str(root), "--labels", str(labels))
    assert result.exit_code == 0, result.stderr
    assert "copied" not in result.stdout
    assert _fields(root) == EXPECTED_TYPES
    dataset = load_dataset(root)
    first = dataset.items[0]
    assert (first.file, first.ground_truth["address"]) == (
        "scans/r1.png",
        "1 Jalan Besar,\nKuala Lumpur",
    )
    # the scaffolded dataset syncs into the embedded service as it is
    result = run_main("sync", str(root))
    assert result.exit_code == 0, result.stderr
    assert "did: create 4, update 0, replace 0, delete 0, upload 4" in result.stdout


def test_bad_labels_stop_init_and_leave_nothing_behind(tmp_path: Path) -> None:
    root = _receipts(tmp_path)
    labels = tmp_path / "labels.jsonl"
    labels.write_text(
        json.dumps({"file": "scans/r1.png", "ground_truth": {"total": "RM 1.00"}}) + "\n{oops\n"
    )
    result = run_main("datasets", "init", str(root), "--labels", str(labels))
    assert result.exit_code == 2
    assert "labels.jsonl:2: invalid JSON" in result.stderr
    assert sorted(p.name for p in root.iterdir()) == ["scans"]

    for args, message in [
        (("--labels", str(tmp_path / "nope.csv")), "error: labels file not found"),
        (("--labels", str(root / "scans" / "r1.png")), "cannot tell the format"),
        ((), "no labels found"),
    ]:
        result = run_main("datasets", "init", str(root), *args)
        assert result.exit_code == 2
        assert result.stderr.startswith("error: ")
        assert message in result.stderr
        assert result.stderr.count("\n") == 1
    assert run_main("datasets", "init", str(tmp_path / "missing")).exit_code == 2
