"""A German config on the real ZUGFeRD invoices, checked against their ground truth."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.parsing import parse_document
from tests.shared_data import shared_dataset

FILES = ["EN16931_Einfach", "EN16931_Rechnungskorrektur", "EN16931_Betriebskostenabrechnung"]
GERMAN: dict[str, Any] = {
    "date_order": "DMY",
    "fields": [
        {"name": "issue_date", "type": "date", "labels": ["vom"]},
        {"name": "currency", "type": "enum", "values": ["EUR", "USD"], "labels": ["Währung"]},
        {
            "name": "seller_vat_id",
            "type": "string",
            "labels": ["USt.-Id.-Nr."],
            "pattern": "[A-Z]{2}[0-9A-Z]{8,12}",
        },
        {"name": "line_total", "type": "currency", "labels": ["Positionssumme"]},
        {"name": "tax_total", "type": "currency", "labels": ["Steuerbetrag"]},
        {"name": "grand_total", "type": "currency", "labels": ["Bruttosumme"]},
        {"name": "due_payable", "type": "currency", "labels": ["Zahlbetrag"]},
    ],
}


def _root() -> Path:
    return shared_dataset("zugferd-dev")


def _truth() -> dict[str, dict[str, Any]]:
    lines = (_root() / "ground_truth.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    return {Path(r["file"]).stem: r["ground_truth"] for r in rows}


@pytest.mark.parametrize("name", FILES)
def test_german_fields_match_ground_truth(name: str) -> None:
    truth = _truth()[name]
    doc = parse_document((_root() / "documents" / f"{name}.pdf").read_bytes())
    out = extract(doc, validate_config(GERMAN))
    for field in GERMAN["fields"]:
        key = field["name"]
        expected = truth[key]
        got = out["value"][key]
        if isinstance(expected, float):
            assert got == pytest.approx(expected, abs=0.005), key
        else:
            assert got == expected, key
        # "vom" also precedes the order date ("Bestellung vom 01.03.2018"): rightly unsure
        if key != "issue_date":
            assert out["metadata"][key]["confidence"] >= 0.9, key


def test_first_occurrence_reads_every_invoice_number() -> None:
    """The number follows "Nr." in the title line; later "HRB Nr. 372876" lines are stronger."""
    number = {"name": "invoice_number", "type": "string", "labels": ["Nr."]}
    number["pattern"] = "[0-9A-Z][0-9A-Z./-]{2,}"
    best = validate_config({"fields": [number]})
    first = validate_config({"fields": [{**number, "occurrence": "first"}]})
    right = {"best": 0, "first": 0}
    truth = _truth()
    for name, expected in truth.items():
        doc = parse_document((_root() / "documents" / f"{name}.pdf").read_bytes(), ocr=False)
        for key, config in (("best", best), ("first", first)):
            right[key] += (
                extract(doc, config)["value"].get("invoice_number") == expected["invoice_number"]
            )
    assert right == {"best": 20, "first": len(truth)}
