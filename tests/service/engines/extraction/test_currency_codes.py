"""A currency field without a closed list: any code in use today (Babel's CLDR data)."""

from __future__ import annotations

import pytest

from fieldwise._errors import ConfigError
from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.extraction.currencies import current_codes
from fieldwise.service.engines.parsing import parse_document

OPEN = {"name": "currency", "type": "enum", "vocabulary": "currency", "infer_from_symbols": True}


def _currency(text: str, field: dict[str, object]) -> object:
    doc = parse_document(text.encode(), filename="invoice.txt")
    return extract(doc, validate_config({"fields": [field]}))["value"].get("currency")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Invoice 7\nTotal          1,250.00 INR\n", "INR"),
        ("Rechnung 8\nSumme        120,00 ISK\nMwSt 20,00 ISK\n", "ISK"),
        ("BILL\nTOTAL   Rs. 500.00\n", "INR"),
        ("Invoice\nCurrency: NGN\nTotal 5,000.00\n", "NGN"),
    ],
)
def test_codes_and_marks_beyond_any_typed_list(text: str, code: str) -> None:
    assert _currency(text, OPEN) == code


def test_a_listed_enum_still_keeps_to_its_values() -> None:
    listed = {**OPEN, "values": ["EUR", "USD"]}
    assert _currency("Invoice 7\nTotal          1,250.00 INR\n", listed) is None


def test_no_amount_with_a_currency_no_value() -> None:
    assert _currency("Invoice\nTotal 12.00\n", OPEN) is None


def test_current_codes_are_todays_not_historical() -> None:
    codes = current_codes()
    assert {"EUR", "INR", "ISK", "NGN", "MYR", "CHF"} <= set(codes)
    assert not {"DEM", "FRF", "ITL"} & set(codes)


def test_other_enums_still_need_values() -> None:
    with pytest.raises(ConfigError, match=r"fields\[0\]\.values"):
        validate_config({"fields": [{"name": "kind", "type": "enum"}]})
