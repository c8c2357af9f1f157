"""The e_invoice option: fields from the embedded CII / UBL XML, with their provenance."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fieldwise._errors import ConfigError
from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.extraction.einvoice import read_invoice
from fieldwise.service.engines.parsing import parse_document
from fieldwise.service.engines.parsing.stored import decode_document, encode_document
from tests.service.engines.extraction.einvoice_docs import CII, UBL, hybrid_pdf
from tests.shared_data import shared_dataset

FIELDS: list[dict[str, Any]] = [
    {"name": "invoice_number", "type": "string", "labels": ["Rechnungsnummer"]},
    {"name": "issue_date", "type": "date", "labels": ["Rechnungsdatum"]},
    {"name": "grand_total", "type": "currency", "labels": ["Gesamtbetrag"]},
    {"name": "tax_total", "type": "currency", "vocabulary": "tax_total"},
    {"name": "vendor", "type": "string", "strategy": "seller"},
    {"name": "seller_postcode", "type": "string", "pattern": "\\d{5}"},
    {"name": "seller_vat_id", "type": "string", "pattern": "DE\\d{9}"},
    {"name": "due", "type": "date", "vocabulary": "due_date"},
    {"name": "currency", "type": "enum", "values": ["EUR", "USD"], "labels": ["Währung"]},
    {"name": "note", "type": "string", "labels": ["Bemerkung"]},
]


def _config(on: bool | None) -> Any:
    raw: dict[str, Any] = {"date_order": "DMY", "fields": FIELDS}
    if on is not None:
        raw["e_invoice"] = on
    return validate_config(raw)


@pytest.fixture(scope="module")
def hybrid() -> Any:
    return parse_document(hybrid_pdf({"factur-x.xml": CII}))


def test_option_on_reads_every_mapped_field_from_the_xml(hybrid: Any) -> None:
    out = extract(hybrid, _config(True))
    assert out["value"] == {
        "invoice_number": "RE-2024-77",
        "issue_date": "2024-03-15",
        "grand_total": 1190.0,
        "tax_total": 190.0,  # the invoice currency's, not the USD one
        "vendor": "Nordlicht Werkzeuge GmbH",  # a seller strategy is the seller's name
        "seller_postcode": "24103",
        "seller_vat_id": "DE298765432",
        "due": "2024-04-14",
        "currency": "EUR",
    }
    meta = out["metadata"]
    assert meta["tax_total"]["source"] == "embedded_xml"
    assert meta["tax_total"]["xml_path"].endswith("MonetarySummation/TaxTotalAmount")
    assert meta["seller_vat_id"]["xml_path"].endswith("SpecifiedTaxRegistration/ID[@schemeID]")
    assert meta["vendor"]["confidence"] == 1.0


def test_option_off_by_default_reads_the_page_only(hybrid: Any) -> None:
    assert _config(None).e_invoice is False
    out = extract(hybrid, _config(None))
    assert out == extract(hybrid, _config(False))
    # only what the page prints, and no provenance keys beyond the usual ones
    assert out["value"]["invoice_number"] == "RE-2024-77"
    assert out["value"]["grand_total"] == 1190.0
    assert "seller_vat_id" not in out["value"]
    assert "tax_total" not in out["value"]
    assert all("source" not in entry for entry in out["metadata"].values())


def test_fields_the_xml_lacks_fall_back_to_the_page_and_say_so() -> None:
    doc = parse_document(
        hybrid_pdf({"factur-x.xml": CII.replace("RE-2024-77</ram:ID>", "</ram:ID>")})
    )
    out = extract(doc, _config(True))
    assert out["value"]["invoice_number"] == "RE-2024-77"
    assert out["metadata"]["invoice_number"]["source"] == "page"
    assert out["metadata"]["issue_date"]["source"] == "embedded_xml"


def test_enum_values_outside_the_config_are_not_taken_from_the_xml() -> None:
    doc = parse_document(hybrid_pdf({"factur-x.xml": CII.replace(">EUR<", ">GBP<")}))
    assert "currency" not in extract(doc, _config(True))["value"]


def test_ubl_credit_note_is_read() -> None:
    doc = parse_document(hybrid_pdf({"xrechnung.xml": UBL}))
    terms = {k: v.value for k, v in read_invoice(doc.invoice_xml or "").items()}
    assert terms["invoice_number"] == "GS-12"
    assert terms["document_type_code"] == "381"
    assert terms["issue_date"] == "2024-05-02"
    assert terms["seller_name"] == "Alpenblick Reisen AG"  # the legal name before the trade name
    assert terms["seller_vat_id"] == "CHE123456789"
    assert terms["seller_postcode"] == "6003"
    assert terms["buyer_name"] == "Tal Hotel"
    assert (terms["tax_total"], terms["grand_total"], terms["due_payable"]) == (8.1, 108.1, 108.1)


def test_only_an_invoice_xml_is_taken_from_the_attachments() -> None:
    notes = '<?xml version="1.0"?><notes><ID>not an invoice</ID></notes>'
    assert parse_document(hybrid_pdf({"notes.xml": notes})).invoice_xml is None
    assert parse_document(hybrid_pdf({})).invoice_xml is None
    both = parse_document(hybrid_pdf({"notes.xml": notes, "other.xml": UBL, "factur-x.xml": CII}))
    assert both.invoice_xml is not None
    assert "CrossIndustryInvoice" in both.invoice_xml


def test_entities_are_not_expanded_and_broken_xml_reads_as_nothing() -> None:
    bomb = CII.replace(
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>',
    ).replace("RE-2024-77", "&e;")
    assert "invoice_number" not in read_invoice(bomb)
    assert read_invoice(CII[:400]) == {}
    assert read_invoice("<Invoice/>") == {}


def test_stored_form_keeps_the_xml(hybrid: Any) -> None:
    again = decode_document(encode_document(hybrid))
    assert again.invoice_xml == hybrid.invoice_xml
    assert extract(again, _config(True)) == extract(hybrid, _config(True))


def test_option_must_be_a_boolean() -> None:
    with pytest.raises(ConfigError, match="e_invoice: expected true or false"):
        validate_config({"e_invoice": "yes", "fields": FIELDS})


def _close(value: Any, truth: Any) -> bool:
    if isinstance(truth, float):
        return isinstance(value, float) and abs(value - truth) < 0.005
    return " ".join(str(value).split()) == " ".join(str(truth).split())


def test_every_zugferd_dev_pdf_is_read_from_its_xml() -> None:
    root = shared_dataset("zugferd-dev")
    names = [
        "invoice_number", "issue_date", "payment_due_date", "seller_name", "seller_postcode",
        "seller_city", "seller_vat_id", "seller_tax_number", "buyer_name", "buyer_order_number",
        "currency", "iban", "line_total", "charge_total", "allowance_total", "tax_basis_total",
        "tax_total", "grand_total", "prepaid_total", "due_payable",
    ]  # fmt: skip
    config = validate_config(
        {"e_invoice": True, "fields": [{"name": n, "type": "string"} for n in names]}
    )
    rows = [json.loads(line) for line in (root / "ground_truth.jsonl").read_text().splitlines()]
    assert len(rows) == 26
    right = expected = 0
    for row in rows:
        doc = parse_document((root / row["file"]).read_bytes())
        assert doc.invoice_xml is not None, Path(row["file"]).name
        out = extract(doc, config)
        for name, truth in row["ground_truth"].items():
            value = out["value"].get(name)
            if isinstance(truth, float) and value is not None:
                value = float(value)
            expected += 1
            right += _close(value, truth)
            assert out["metadata"][name]["source"] == "embedded_xml"
    assert expected == 384
    assert right == expected
