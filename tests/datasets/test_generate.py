from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from fieldwise._errors import DatasetError
from fieldwise.datasets import load_dataset
from fieldwise.datasets.generate import GeneratedDataset, generate_dataset
from fieldwise.datasets.generate._layouts import INVOICE_LAYOUTS, format_date, format_money

REPO = Path(__file__).resolve().parents[2]
COMMITTED = REPO / "datasets" / "invoices"


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> GeneratedDataset:
    """8 invoices, 2 of them scans; every layout appears at least once."""
    out = tmp_path_factory.mktemp("gen") / "small"
    return generate_dataset("invoices", 8, 11, out, scanned_share=0.25)


def _files(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def _text(path: Path) -> list[str]:
    document = pdfium.PdfDocument(path)
    try:
        return [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()


def test_same_seed_same_bytes_different_seed_different(
    small: GeneratedDataset, tmp_path: Path
) -> None:
    # The folder name becomes the dataset name, so regenerate under the same name.
    again = generate_dataset("invoices", 8, 11, tmp_path / "a" / "small", scanned_share=0.25)
    assert _files(again.root) == _files(small.root)
    other = generate_dataset("invoices", 8, 12, tmp_path / "b" / "small", scanned_share=0.25)
    ours, theirs = _files(small.root), _files(other.root)
    changed = [
        name for name in ours if name.startswith("documents/") and ours[name] != theirs[name]
    ]
    assert len(changed) == 8
    assert ours["ground_truth.jsonl"] != theirs["ground_truth.jsonl"]


def test_generated_dataset_validates_cleanly(small: GeneratedDataset) -> None:
    dataset = load_dataset(small.root)
    assert dataset.warnings == ()
    assert len(dataset.items) == 8
    assert dataset.fields["total"]["critical"] is True
    assert dataset.fields["invoice_number"]["critical"] is True
    assert dataset.processor is not None
    baseline, candidate = (
        dataset.processor.version("baseline"),
        dataset.processor.version("candidate"),
    )
    assert baseline is not None
    assert candidate is not None
    assert baseline.config["fields"] != candidate.config["fields"]
    assert {d.layout for d in small.documents} == {layout.name for layout in INVOICE_LAYOUTS}


def test_text_pdfs_carry_the_invoice_number_and_scans_have_no_text(small: GeneratedDataset) -> None:
    truth = {item.file: item.ground_truth for item in load_dataset(small.root).items}
    scans = [d for d in small.documents if d.scanned]
    assert len(scans) == 2
    for document in small.documents:
        pages = _text(small.root / document.file)
        assert len(pages) == document.pages
        if document.scanned:
            assert all(page.strip() == "" for page in pages)
        else:
            text = "".join(pages)
            assert truth[document.file]["invoice_number"] in text
            assert truth[document.file]["vendor_name"] in text


def test_ground_truth_sums_are_exact(small: GeneratedDataset) -> None:
    for item in load_dataset(small.root).items:
        truth = item.ground_truth
        rows = truth["line_items"]
        assert 1 <= len(rows) <= 15
        cents = [round(Decimal(str(r["amount"])) * 100) for r in rows]
        assert sum(cents) == round(Decimal(str(truth["subtotal"])) * 100)
        assert round(Decimal(str(truth["subtotal"])) + Decimal(str(truth["tax"])), 2) == round(
            Decimal(str(truth["total"])), 2
        )
        for row in rows:
            expected = Decimal(str(row["quantity"])) * Decimal(str(row["unit_price"]))
            assert abs(expected - Decimal(str(row["amount"]))) <= Decimal("0.005")
        assert truth["currency"] in {"EUR", "USD", "GBP"}
        dt.date.fromisoformat(truth["invoice_date"])


def test_metadata_lists_every_document(small: GeneratedDataset) -> None:
    metadata = json.loads((small.root / "generator.json").read_text())
    assert metadata["seed"] == 11
    assert [d["file"] for d in metadata["documents"]] == [d.file for d in small.documents]


def test_receipts_generate_and_validate(tmp_path: Path) -> None:
    result = generate_dataset("receipts", 4, 5, tmp_path / "r", scanned_share=0.5)
    dataset = load_dataset(result.root)
    assert dataset.warnings == ()
    assert {item.file.rsplit(".", 1)[1] for item in dataset.items} == {"pdf", "png"}
    for item in dataset.items:
        assert set(item.ground_truth) == {
            "merchant_name",
            "date",
            "currency",
            "total",
            "line_items",
        }


def test_non_empty_folder_needs_force_and_force_keeps_other_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(DatasetError, match="not empty"):
        generate_dataset("invoices", 1, 0, out)
    generate_dataset("invoices", 2, 0, out, force=True)
    (out / "documents" / "stale.pdf").write_bytes(b"old")
    generate_dataset("invoices", 1, 0, out, force=True)
    assert (out / "notes.txt").read_text() == "mine"
    assert sorted(p.name for p in (out / "documents").iterdir()) == ["invoice-001.pdf"]


def test_bad_arguments_are_refused(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="unknown dataset kind"):
        generate_dataset("bills", 1, 0, tmp_path / "x")  # type: ignore[arg-type]
    with pytest.raises(DatasetError, match="count must be"):
        generate_dataset("invoices", 0, 0, tmp_path / "y")


def test_date_and_money_formats() -> None:
    day = dt.date(2026, 3, 1)
    formats = ("iso", "mdy_slash", "dmy_dot", "dmy_slash", "long", "us_long", "dmon")
    assert [format_date(day, f) for f in formats] == [
        "2026-03-01", "03/01/2026", "01.03.2026", "01/03/2026", "1 March 2026", "March 1, 2026",
        "01-Mar-2026",
    ]  # fmt: skip
    amount = Decimal("1234.5")
    assert format_money(amount, "EUR", "en", "code_prefix") == "EUR 1,234.50"
    assert format_money(amount, "EUR", "de", "code_suffix") == "1.234,50 EUR"
    assert format_money(amount, "GBP", "en", "symbol_prefix") == "£1,234.50"
    assert format_money(amount, "EUR", "fr", "symbol_suffix") == "1 234,50 €"
    assert format_money(amount, "USD", "plain", "code_prefix") == "USD 1234.50"


def test_committed_sample_dataset_regenerates_byte_identically(tmp_path: Path) -> None:
    metadata = json.loads((COMMITTED / "generator.json").read_text())
    fresh = generate_dataset(
        "invoices",
        metadata["count"],
        metadata["seed"],
        tmp_path / "invoices",
        scanned_share=metadata["scanned_share"],
    )
    ours, committed = _files(fresh.root), _files(COMMITTED)
    # processor/*.json are tuned by hand after generation, so only the generated data must match.
    for name in ("ground_truth.jsonl", "generator.json", "dataset.toml"):
        assert ours[name] == committed[name], name
    documents = sorted(name for name in ours if name.startswith("documents/"))
    assert documents == sorted(name for name in committed if name.startswith("documents/"))
    assert all(ours[name] == committed[name] for name in documents)
    dataset = load_dataset(COMMITTED)
    assert len(dataset.items) == 60
    assert dataset.warnings == ()
    assert sum(d.scanned for d in fresh.documents) == 9
    assert any(d.pages > 1 for d in fresh.documents)
    assert sum(len(data) for data in committed.values()) < 8_000_000
