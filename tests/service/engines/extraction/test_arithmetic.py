"""Arithmetic consistency as a candidate selector: the tax and net amounts that add up."""

from __future__ import annotations

from typing import Any

from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.parsing import parse_document

CONFIG = validate_config(
    {
        "fields": [
            {"name": "tax", "type": "currency", "vocabulary": "tax_total"},
            {"name": "net", "type": "currency", "vocabulary": "net_total"},
            {"name": "total", "type": "currency", "vocabulary": "grand_total"},
        ]
    }
)


def _read(*lines: str) -> dict[str, Any]:
    text = "\n".join(["INVOICE 2041", "", *lines]) + "\n"
    return extract(parse_document(text.encode(), filename="invoice.txt"), CONFIG)["value"]


def test_tax_is_gross_minus_net_not_the_basis_printed_beside_its_label() -> None:
    got = _read(
        "Subtotal                    1,000.00",
        "VAT            1,000.00     19 %       190.00",
        "Total                       1,190.00",
    )
    assert got == {"tax": 190.0, "net": 1000.0, "total": 1190.0}


def test_tax_is_rate_times_net_when_no_gross_total_is_printed() -> None:
    got = _read(
        "Net amount                    500.00", "VAT 20 %     on 500.00                100.00"
    )
    assert got == {"tax": 100.0, "net": 500.0}


def test_net_is_gross_minus_tax_not_a_count_beside_its_label() -> None:
    got = _read(
        "Subtotal     Widgets 3 pcs      75.00    840.00",
        "VAT                          159.60",
        "Total                       999.60",
    )
    assert got == {"tax": 159.6, "net": 840.0, "total": 999.6}


def test_without_an_equation_the_nearest_amount_stands() -> None:
    # nothing adds up here (no gross total, no rate): the value beside the label is kept
    got = _read("VAT            12.00        190.00")
    assert got == {"tax": 12.0}


def test_credit_note_parts_keep_their_printed_size() -> None:
    got = _read(
        "Subtotal                   -1,000.00",
        "VAT            -1,000.00   19 %      -190.00",
        "Total                      -1,190.00",
    )
    assert abs(got["tax"]) == 190.0
    assert abs(got["net"]) == 1000.0
