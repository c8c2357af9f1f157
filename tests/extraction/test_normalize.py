"""Amounts and dates in the formats invoices print."""

from __future__ import annotations

import pytest

from fieldwise.service.engines.extraction import parse_amount, parse_date


@pytest.mark.parametrize(
    ("text", "value", "currency"),
    [
        ("1,234.50", 1234.5, None),
        ("1.234,50", 1234.5, None),
        ("€1,234.50", 1234.5, "EUR"),
        ("1 234,50 EUR"[2:], 234.5, "EUR"),
        ("-8,79", -8.79, None),
        ("(12.00)", -12.0, None),
        ("USD 99", 99.0, "USD"),
        ("£7", 7.0, "GBP"),
        ("9,9000", 9.9, None),
        ("1.234", 1234.0, None),
        ("19 % tax 56,87", 56.87, None),
    ],
)
def test_amounts(text: str, value: float, currency: str | None) -> None:
    parsed = parse_amount(text)
    assert parsed is not None
    assert parsed.value == value
    assert parsed.currency == currency


def test_no_amount_in_a_date() -> None:
    assert parse_amount("05.03.2018") is None


@pytest.mark.parametrize(
    ("text", "order", "iso"),
    [
        ("05.03.2018", "DMY", "2018-03-05"),
        ("03/05/2018", "MDY", "2018-03-05"),
        ("03/05/2018", "DMY", "2018-05-03"),
        ("13/05/2018", "MDY", "2018-05-13"),
        ("2018-03-05", "MDY", "2018-03-05"),
        ("5. März 2018", "DMY", "2018-03-05"),
        ("March 5, 2018", "DMY", "2018-03-05"),
        ("5 Mar 2018", "DMY", "2018-03-05"),
        ("due 31/12/24", "DMY", "2024-12-31"),
    ],
)
def test_dates(text: str, order: str, iso: str) -> None:
    parsed = parse_date(text, order)
    assert parsed is not None
    assert parsed.value == iso


def test_invalid_date_is_none() -> None:
    assert parse_date("31.02.2018") is None
