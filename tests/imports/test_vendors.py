"""Each vendor parser on a response shaped as the vendor documents it (fixtures/README.md),
then the default mapping onto the bundled invoices' fields and overrides of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fieldwise.datasets import Dataset
from fieldwise.imports import PredictionsError, detect_format
from fieldwise.imports._azure import parse_azure
from fieldwise.imports._google import parse_google
from fieldwise.imports._mapping import apply_mapping, field_mapping
from fieldwise.imports._model import Output
from fieldwise.imports._textract import parse_textract

FIXTURES = Path(__file__).parent / "fixtures"


def _load(name: str) -> object:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def _mapped(
    vendor: str, name: str, invoices: Dataset, overrides: dict[str, str] | None = None
) -> Output:
    parse = {"azure": parse_azure, "google": parse_google, "textract": parse_textract}[vendor]
    document = parse(_load(name), name)
    return apply_mapping(document, field_mapping(vendor, invoices.fields, overrides), "a", name)


@pytest.mark.parametrize(
    ("name", "vendor"),
    [
        ("azure-number-amounts.json", "azure"),
        ("google-proto-plus.json", "google"),
        ("textract-repeated-types.json", "textract"),
    ],
)
def test_the_format_is_detected_from_the_content(name: str, vendor: str) -> None:
    assert detect_format(FIXTURES / name) == vendor


def test_azure_values_confidences_and_what_is_not_mapped(invoices: Dataset) -> None:
    out = _mapped("azure", "azure-number-amounts.json", invoices)
    assert out.value == {
        "invoice_number": "NW-204",
        "invoice_date": "2026-03-04",
        "vendor_name": "NORTHWIND LTD.",
        "total": 110,
        "line_items": [
            {"amount": 60, "description": "Consulting Services", "quantity": 2, "unit_price": 30}
        ],
    }
    assert out.confidence["total"] == 0.973
    assert out.confidence["line_items.0.unit_price"] == 0.93
    # AmountDue adds a previous balance: never taken for the total
    assert out.unmapped == ("AmountDue", "Items.Tax", "Locale", "VendorAddressRecipient")


def test_azure_overrides_replace_and_ignore(invoices: Dataset) -> None:
    overrides = {"VendorAddressRecipient": "vendor_name", "VendorName": "", "Locale": ""}
    out = _mapped("azure", "azure-number-amounts.json", invoices, overrides)
    assert out.value["vendor_name"] == "Northwind Traders"
    assert out.confidence["vendor_name"] == 0.955
    assert out.unmapped == ("AmountDue", "Items.Tax")


def test_google_proto_plus_dump(invoices: Dataset) -> None:
    out = _mapped("google", "google-proto-plus.json", invoices)
    assert out.value == {
        "invoice_number": "ST-88",
        "invoice_date": "2022-12-11",
        "vendor_name": "Stadtwerke Musterstadt GmbH",  # the more confident of two entities
        "total": "62.86",  # money given as normalised text only
        "line_items": [{"description": "Arbeitspreis", "quantity": "120", "amount": "37.2"}],
    }
    assert out.confidence["line_items.0.amount"] == 0.86
    assert out.unmapped == ("vat",)
    assert any("supplier_name: 2 entities" in note for note in out.notes)


def test_textract_percent_confidences_groups_and_other(invoices: Dataset) -> None:
    out = _mapped("textract", "textract-repeated-types.json", invoices)
    assert out.value == {
        "invoice_number": "TX-5521",
        "vendor_name": "Fabrikam Inc.",
        "total": "$1,810.46",  # raw text: the comparators normalise it
        "currency": "USD",
        "line_items": [{"description": "LG FLATSCREEN 65", "amount": "$899.99"}],
    }
    assert out.confidence["total"] == pytest.approx(0.9989)
    assert out.confidence["currency"] == pytest.approx(0.88)
    assert out.unmapped == ("OTHER:TERMINAL #",)  # EXPENSE_ROW is skipped, not unmapped
    assert any("VENDOR_NAME: 2 fields" in note for note in out.notes)


def test_a_response_that_reads_as_two_vendors_is_refused(tmp_path: Path) -> None:
    both = {"ExpenseDocuments": [], "entities": [{"type": "total_amount"}]}
    path = tmp_path / "both.json"
    path.write_text(json.dumps(both), encoding="utf-8")
    with pytest.raises(PredictionsError, match="ambiguous: it reads as google and as textract"):
        detect_format(path)


def test_the_javascript_sdk_serialisation_reads_as_the_rest_one(invoices: Dataset) -> None:
    assert detect_format(FIXTURES / "azure-js-kind-value.json") == "azure"
    rest = _mapped("azure", "azure-number-amounts.json", invoices)
    js = _mapped("azure", "azure-js-kind-value.json", invoices)
    assert js.value == rest.value
    assert js.confidence == rest.confidence
    assert js.unmapped == rest.unmapped
