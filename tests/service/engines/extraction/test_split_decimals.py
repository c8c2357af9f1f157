"""Amounts that OCR split at their decimal mark ("RM 170. 00", "170 .00", "170 . 00") are read
whole when the document's other amounts use that mark before two-digit cents; a thousands
group, the other mark, a date and words in columns apart are never joined. Generated text
documents: one space between words is the gap OCR leaves beside a mark, two or more a column."""

from __future__ import annotations

import pytest

from fieldwise.service.engines.extraction import validate_config
from fieldwise.service.engines.extraction.decimals import decimal_mark, rejoin_decimals
from fieldwise.service.engines.parsing import ParsedDocument, parse_document
from tests.service.engines.extraction.text_docs import read_lines

CONFIG = validate_config(
    {"fields": [{"name": "total", "type": "currency", "vocabulary": "grand_total"}]}
)


def _doc(*lines: str) -> ParsedDocument:
    return parse_document(("\n".join(lines) + "\n").encode(), filename="doc.txt")


def _texts(*lines: str) -> list[str]:
    return [line.text for line in rejoin_decimals(_doc(*lines)).pages[0].lines]


@pytest.mark.parametrize("split", ["170. 50", "170 .50", "170 . 50", "RM170. 50"])
def test_a_total_split_at_its_decimal_mark_is_read_whole(split: str) -> None:
    got = read_lines(CONFIG, "KEDAI MAJU SDN BHD", "Coffee       4.50", f"TOTAL    {split}")
    assert got["total"] == 170.5


def test_a_cash_amount_split_at_its_mark_is_the_total_when_no_label_offers_one() -> None:
    # the tune half's shape: the amount is printed only under "CASH", and before the fix the
    # equation found 170 tendered but no printed 170.00 to take
    got = read_lines(
        CONFIG, "KEDAI MAJU", "DP1.05    RM149.00", "DP1.04    RM21.00", "CASH", "RM 170. 00"
    )
    assert got["total"] == 170.0


def test_a_comma_decimal_amount_split_at_its_mark_is_read_whole() -> None:
    got = read_lines(
        CONFIG, "Muster GmbH", "Zwischensumme    1.037,44", "Gesamtbetrag    EUR 1.234, 56"
    )
    assert got["total"] == 1234.56


def test_the_decimal_mark_is_the_one_most_amounts_put_before_their_cents() -> None:
    assert decimal_mark(_doc("Tea 4.50", "Total 1,204.50")) == "."
    assert decimal_mark(_doc("Tee 4,50", "Summe 1.204,50")) == ","
    assert decimal_mark(_doc("Tea 4", "Total 12")) is None
    assert decimal_mark(_doc("Tea 4.50", "Tee 4,50")) is None


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        # a thousands group: three digits after the mark
        (("Tea 4.50", "Total 1. 000", "Qty 2 .000"), ["Tea 4.50", "Total 1. 000", "Qty 2 .000"]),
        # "12. 50" on a page of "1.234,56": the dot is a thousands mark there, never a decimal one
        (
            ("Tee 4,50", "Summe 1.204,50", "Menge 12. 50", "Betrag 12 ,50"),
            ["Tee 4,50", "Summe 1.204,50", "Menge 12. 50", "Betrag 12,50"],
        ),
        # dates, times, and a column apart (four spaces: wider than the line's height)
        (
            ("Tea 4.50", "Date 09. 03. 2018", "Time 21:28. 00", "Qty 2.    50"),
            ["Tea 4.50", "Date 09. 03. 2018", "Time 21:28. 00", "Qty 2. 50"],
        ),
    ],
    ids=["thousands", "other-mark", "dates-times-columns"],
)
def test_only_a_decimal_mark_before_two_digit_cents_is_joined(
    lines: tuple[str, ...], expected: list[str]
) -> None:
    assert _texts(*lines) == expected


def test_a_page_without_amounts_with_cents_is_left_as_it_is() -> None:
    doc = _doc("Tea 4", "Total 170. 00")
    assert rejoin_decimals(doc) is doc
