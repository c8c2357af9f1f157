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


@pytest.mark.parametrize(
    ("text", "lenient", "iso"),
    [
        ("12 maart 2019", False, "2019-03-12"),
        ("3 juillet 2021", False, "2021-07-03"),
        ("4 de julio de 2021", False, "2021-07-04"),
        ("3. Mai 2024", False, "2024-05-03"),
        ("May 4 , 2019", False, "2019-05-04"),
        ("14/02/20199:41AM", False, "2019-02-14"),
        ("25/FEB/2017", True, "2017-02-25"),
        ("28 MAR 18", True, "2018-03-28"),
        ("13 Sep, 2022", True, "2022-09-13"),
        ("12 giugno 2020", False, "2020-06-12"),
        ("1 fevereiro 2022", False, "2022-02-01"),
    ],
)
def test_dates_in_seven_languages_and_odd_forms(text: str, lenient: bool, iso: str) -> None:
    parsed = parse_date(text, "DMY", lenient=lenient)
    assert parsed is not None
    assert parsed.value == iso


@pytest.mark.parametrize(
    ("text", "value", "code"),
    [
        ("RM29.30", 29.3, "MYR"),
        ("Rs. 1,234.50", 1234.5, "INR"),
        ("₹ 500", 500.0, "INR"),
        ("R$ 10,50", 10.5, "BRL"),
        ("100,00 zł", 100.0, "PLN"),
        ("CHF 12.00", 12.0, "CHF"),
        ("¥1,200", 1200.0, "JPY"),
        ("99 kr", 99.0, None),
        ("EUR200.00", 200.0, "EUR"),
    ],
)
def test_currency_marks_beyond_euro_dollar_pound(text: str, value: float, code: str | None) -> None:
    parsed = parse_amount(text)
    assert parsed is not None
    assert (parsed.value, parsed.currency) == (value, code)
