"""A receipt's grand total by its arithmetic: cash tendered minus change is what was due, also
when no label offers that amount (a rounded total on a line of its own, a label OCR garbled),
an amount printed after a currency column ("TOTAL  RM  60.31"), cash tendered without change
when no label offers a total, and "Amt" for "Amount" in a label. Generated text receipts whose
every amount is known by construction."""

from __future__ import annotations

from typing import Any

import pytest

from fieldwise.service.engines.extraction import validate_config
from tests.service.engines.extraction.text_docs import read_lines

CONFIG = validate_config(
    {"fields": [{"name": "total", "type": "currency", "vocabulary": "grand_total"}]}
)


def _read(*lines: str) -> dict[str, Any]:
    return read_lines(CONFIG, "KEDAI MAJU SDN BHD", "", "Coffee       4.50", *lines)


@pytest.mark.parametrize("mark", ["RM", "EUR", "RH"])  # "RH": OCR's reading of "RM"
def test_an_amount_after_a_currency_column_is_read(mark: str) -> None:
    got = _read(f"TOTAL AMT      {mark}      60.31", "Thank you")
    assert got["total"] == 60.31


def test_the_rounded_total_on_a_line_of_its_own_is_what_cash_minus_change_gives() -> None:
    got = _read(
        "TOTAL AMT            60.31",
        "ROUNDING ADJ         -0.01",
        "                     60.30",
        "CASH                 70.30",
        "CHANGE               10.00",
    )
    assert got["total"] == 60.3


def test_a_total_whose_label_ocr_garbled_is_found_by_cash_minus_change() -> None:
    got = _read("Item Count 18", "lotaI              85.10", "Cash    100.10", "Change   15.00")
    assert got["total"] == 85.1


def test_paid_amount_minus_change_chooses_among_the_totals() -> None:
    got = _read(
        "Total Amt Incl.GST(@ 6%:   79.50",  # a long label: a weaker match than "Total"
        "Paid Amount               100.00",
        "Change                     20.50",
        "Summary of items          Amount",
        "Total                      75.00",  # the amount before tax, under a plain "Total"
    )
    assert got["total"] == 79.5


def test_no_total_is_invented_when_cash_minus_change_is_not_printed() -> None:
    got = _read("Cash    50.00", "Change   30.00")
    assert "total" not in got


def test_a_labelled_total_that_the_cash_confirms_stays() -> None:
    got = _read("Total    12.00", "Cash    50.00", "Change   38.00")
    assert got["total"] == 12.0


def test_cash_without_change_is_the_total_when_no_label_offers_one() -> None:
    # the label stands alone; its amount is printed only beside "Cash" on the line below
    got = _read("PPF P1 1.000 6 6.00", "TOTAL AMOUNT", "CASH RM6.00", "Thank You")
    assert got["total"] == 6.0


def test_cash_without_change_does_not_override_a_labelled_total() -> None:
    got = _read("TOTAL               45.20", "CASH                50.00")
    assert got["total"] == 45.2


@pytest.mark.parametrize("label", ["Amt Due", "AMT DUE", "Total Amt"])
def test_an_abbreviated_amount_label_reads_the_total(label: str) -> None:
    got = _read("Sub Total            129.30", f"{label}       129.30", "GST @6%       7.30")
    assert got["total"] == 129.3


def test_a_total_without_cents_is_weaker_than_one_with_them() -> None:
    # "Total Qty: 7" with "Qty" garbled by OCR, and "Change" too: no equation decides, and
    # the plain "Total" label would read the count
    got = _read(
        "Total Ant Poyable:         7.40",
        "Paid Amount:              10.00",
        "Chonqe:                    2.60",
        "Total:                     7",
    )
    assert got["total"] == 7.4


def test_a_total_without_cents_is_read_on_a_page_that_prints_none() -> None:
    got = read_lines(CONFIG, "KEDAI MAJU SDN BHD", "Nasi lemak    12", "TOTAL         12")
    assert got["total"] == 12.0
