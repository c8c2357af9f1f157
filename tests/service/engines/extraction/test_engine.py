"""The rules engine on generated invoices: values, metadata, and versions that differ."""

from __future__ import annotations

from typing import Any

import pytest

from fieldwise.service.engines.extraction import extract, extract_key_values, validate_config
from fieldwise.service.engines.parsing import ParsedDocument
from tests.service.engines.extraction.conftest import Invoice

ITEMS = {
    "name": "line_items",
    "type": "array",
    "columns": {"description": ["Description"], "quantity": ["Qty"], "amount": ["Amount"]},
    "column_types": {"quantity": "number", "amount": "currency"},
}
V1: dict[str, Any] = {
    "date_order": "DMY",
    "fields": [
        {
            "name": "invoice_number",
            "type": "string",
            "labels": ["Invoice No"],
            "pattern": "INV-\\d+",
        },
        {"name": "invoice_date", "type": "date", "labels": ["Issue Date"]},
        {"name": "total", "type": "currency", "labels": ["Total"]},
        {"name": "currency", "type": "enum", "values": ["EUR", "USD"], "labels": ["Currency"]},
        ITEMS,
    ],
}
# v2 reads dates month first and takes the total from "Amount Due": two deliberate changes.
V2: dict[str, Any] = {
    **V1,
    "date_order": "MDY",
    "fields": [
        V1["fields"][0],
        V1["fields"][1],
        {"name": "total", "type": "currency", "labels": ["Amount Due"]},
        V1["fields"][3],
    ],
}

Docs = list[tuple[Invoice, ParsedDocument]]


def test_v1_reads_every_field_correctly(invoices: Docs) -> None:
    config = validate_config(V1)
    for invoice, doc in invoices:
        out = extract(doc, config)
        value = out["value"]
        assert value["invoice_number"] == invoice.number
        assert value["invoice_date"] == f"2024-{invoice.month:02d}-{invoice.day:02d}"
        assert value["total"] == invoice.total
        assert value["currency"] == "EUR"
        assert value["line_items"] == [
            {"description": d, "quantity": float(q), "amount": a} for d, q, a in invoice.items
        ]
        assert out["metadata"]["total"]["page"] == 1
        assert out["metadata"]["line_items.0.amount"]["confidence"] > 0.5
        top = {k: m["confidence"] for k, m in out["metadata"].items() if "." not in k}
        # 05/03/2024 reads either way (only date_order decides): less sure than the rest
        assert top.pop("invoice_date") < 0.85
        assert all(c >= 0.85 for c in top.values())


def test_two_versions_give_different_correct_by_construction_results(invoices: Docs) -> None:
    v1, v2 = validate_config(V1), validate_config(V2)
    for invoice, doc in invoices:
        a, b = extract(doc, v1)["value"], extract(doc, v2)["value"]
        assert a["total"] == invoice.total
        assert b["total"] == invoice.due
        assert a["invoice_date"] == f"2024-{invoice.month:02d}-{invoice.day:02d}"
        if invoice.day <= 12:  # ambiguous: MDY swaps day and month
            assert b["invoice_date"] == f"2024-{invoice.day:02d}-{invoice.month:02d}"
        else:
            assert b["invoice_date"] == a["invoice_date"]
        assert "line_items" not in b


def test_position_restricts_where_values_are_read(invoices: Docs) -> None:
    right_only = validate_config(
        {"fields": [{"name": "d", "type": "date", "labels": ["Issue Date"], "position": "right"}]}
    )
    below = validate_config(
        {"fields": [{"name": "d", "type": "date", "labels": ["Issue Date"], "position": "below"}]}
    )
    _, doc = invoices[0]
    assert extract(doc, right_only)["value"] == {}
    assert extract(doc, below)["value"] == {"d": "2024-03-05"}


def test_needs_review_below_threshold_and_unfound_fields_omitted(invoices: Docs) -> None:
    config = validate_config(
        {
            "fields": [
                {"name": "total", "type": "currency", "labels": ["Totl"]},
                {"name": "po", "type": "string", "labels": ["Purchase Order"]},
            ],
            "label_threshold": 70,
        }
    )
    _, doc = invoices[0]
    out = extract(doc, config, confidence_threshold=0.95)
    assert "po" not in out["value"]
    meta = out["metadata"]["total"]
    assert meta["confidence"] < 0.95
    assert meta["needs_review"] is True
    assert extract(doc, config)["metadata"]["total"]["needs_review"] is False


def test_ambiguous_labels_lower_confidence(invoices: Docs) -> None:
    # "Total" and "Amount Due" both match, in the same kind of place, with different values
    vague = validate_config(
        {"fields": [{"name": "x", "type": "currency", "labels": ["Total", "Amount Due"]}]}
    )
    exact = validate_config({"fields": [{"name": "x", "type": "currency", "labels": ["Total"]}]})
    _, doc = invoices[0]
    unsure = extract(doc, vague)["metadata"]["x"]["confidence"]
    sure = extract(doc, exact)["metadata"]["x"]["confidence"]
    assert unsure < 0.75 < 0.9 <= sure


def test_generic_key_values(invoices: Docs) -> None:
    _, doc = invoices[0]
    out = extract_key_values(doc)
    assert out["value"]["invoice_no"] == "INV-1001"
    assert out["value"]["currency"] == "EUR"
    assert set(out["metadata"]) == set(out["value"])


def test_nested_names_nest_values(invoices: Docs) -> None:
    config = validate_config(
        {"fields": [{"name": "doc.number", "type": "string", "labels": ["Invoice No"]}]}
    )
    out = extract(invoices[1][1], config)
    assert out["value"] == {"doc": {"number": "INV-1002"}}
    assert list(out["metadata"]) == ["doc.number"]


@pytest.mark.parametrize("kind", ["date", "enum"])
def test_unlabelled_fields_are_found_by_type_with_low_confidence(invoices: Docs, kind: str) -> None:
    field: dict[str, Any] = {"name": "x", "type": kind}
    if kind == "enum":
        field["values"] = ["EUR", "USD"]
    out = extract(invoices[0][1], validate_config({"fields": [field]}))
    assert out["value"]["x"] == {"date": "2024-03-05", "enum": "EUR"}[kind]
    assert out["metadata"]["x"]["confidence"] < 0.5
