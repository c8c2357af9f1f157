"""Roles of amounts by the words around them, in several languages (generated documents).

Each document is a text receipt or invoice whose every amount is known by construction; the
wrong candidates sit under the same labels as the right ones ("Total" beside "Cash", "VAT"
beside its basis, a 14-digit company number under a total's label). Some cases (a discount,
a quantity, a rate under a longer label) were already read right by the label-cell score; they
stay here so that the role words never break them.
"""

from __future__ import annotations

from typing import Any

import pytest

from fieldwise.service.engines.extraction import validate_config
from fieldwise.service.engines.extraction.normalize import parse_amount
from fieldwise.service.engines.extraction.roles import foreign_role
from tests.service.engines.extraction.text_docs import read_lines

CONFIG = validate_config(
    {
        "fields": [
            {"name": "total", "type": "currency", "vocabulary": "grand_total"},
            {"name": "tax", "type": "currency", "vocabulary": "tax_total"},
            {"name": "net", "type": "currency", "vocabulary": "net_total"},
        ]
    }
)


def _read(*lines: str) -> dict[str, Any]:
    return read_lines(CONFIG, "SHOP 17", "", *lines)


@pytest.mark.parametrize(
    ("paid", "back"),
    [
        ("Total Cash", "Change"),
        ("Total Tendered", "Change Due"),
        ("Gesamtbetrag Bar", "Rückgeld"),
        ("Total espèces", "Monnaie rendue"),
        ("Total Tunai", "Baki"),
    ],
)
def test_a_receipt_total_is_never_the_cash_tendered_or_the_change(paid: str, back: str) -> None:
    got = _read(
        "Coffee                         4.50",
        "Cake                           3.20",
        f"{paid:<24}      50.00",
        f"{back:<24}      42.30",
    )
    assert "total" not in got or got["total"] == 7.7


@pytest.mark.parametrize(
    "line",
    ["Total discount      5.00", "Rabatt gesamt       5.00", "Total rounding adj  0.02"],
)
def test_a_discount_or_rounding_line_is_not_the_total(line: str) -> None:
    got = _read(line, "Total               95.00")
    assert got["total"] == 95.0


def test_a_total_of_quantities_or_of_tax_is_not_the_grand_total() -> None:
    got = _read("Total Qty              3", "Total GST           6.00", "Total              106.00")
    assert got["total"] == 106.0


def test_a_total_including_tax_is_the_grand_total() -> None:
    got = _read("Total incl. VAT            119.00")
    assert got["total"] == 119.0


@pytest.mark.parametrize(
    ("label", "basis"),
    [
        ("MwSt. 19 % auf", "1.000,00"),
        ("TVA 20 % sur", "1.000,00"),
        ("VAT taxable base", "1,000.00"),
    ],
)
def test_a_tax_basis_beside_the_tax_label_is_not_the_tax(label: str, basis: str) -> None:
    got = _read(f"{label} {basis}")
    assert "tax" not in got


def test_a_tax_rate_is_not_a_tax_amount() -> None:
    got = _read("VAT rate          19", "VAT               19.00")
    assert got["tax"] == 19.0
    assert foreign_role("tax_total", "rate", "19", "VAT")


def test_a_long_digit_run_is_an_identifier_not_an_amount() -> None:
    assert parse_amount("Reg. 20123456789012") is None
    assert parse_amount("1,234,567.89") is not None
    got = _read("Total              20123456789012", "Total               88.00")
    assert got["total"] == 88.0


def test_net_is_not_the_gross_printed_beside_it() -> None:
    got = _read("Subtotal incl. VAT        119.00", "Net amount                100.00")
    assert got["net"] == 100.0


def test_the_words_of_the_label_itself_never_count_against_it() -> None:
    # "Net" inside the label "Net total" is the label, not a net amount beside a total
    assert not foreign_role("net_total", "", "100.00", "Net total")
    assert not foreign_role("grand_total", "", "12.00", "Nett Total")
    assert foreign_role("grand_total", "Cash", "12.00", "Total")
    assert not foreign_role(None, "Cash", "12.00", "Total")


DATES = validate_config(
    {
        "date_order": "DMY",
        "fields": [
            {"name": "issued", "type": "date", "vocabulary": "issue_date"},
            {"name": "due", "type": "date", "vocabulary": "due_date"},
        ],
    }
)


def _dates(*lines: str) -> dict[str, Any]:
    return read_lines(DATES, "RECHNUNG 5512", "", *lines)


@pytest.mark.parametrize(
    ("other", "issued"),
    [
        ("Lieferung vom 02.03.2024", "Rechnung vom 09.03.2024"),
        ("Bestellung vom 02.03.2024", "Rechnung vom 09.03.2024"),
        ("Date of order: 02.03.2024", "Date of issue: 09.03.2024"),
    ],
)
def test_the_issue_date_is_never_a_delivery_or_order_date(other: str, issued: str) -> None:
    # the same label ("vom", "Date") introduces both dates, the other one first
    got = _dates(other, issued)
    assert got["issued"] == "2024-03-09"


def test_the_due_date_is_never_a_cash_discount_date() -> None:
    got = _dates(
        "Rechnungsdatum 09.03.2024",
        "Skonto 2 % fällig am 12.03.2024",
        "Netto fällig am 08.04.2024",
    )
    assert got == {"issued": "2024-03-09", "due": "2024-04-08"}
