"""Scalar normalizers on the forms invoices print."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import pytest

from fieldwise.compare import parse_bool, parse_currency, parse_date, parse_number
from fieldwise.compare.score._normalize import Unparsed, is_empty, normalize_text


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("1,234.50", 1234.5),
        ("1.234,50", 1234.5),
        ("€ 1.234,50", 1234.5),
        ("1 234,56", 1234.56),
        ("1'234.56", 1234.56),
        ("(12.00)", -12.0),
        ("-5", -5.0),
        ("−8,79", -8.79),
        ("529,87", 529.87),
        ("1,234", 1234.0),
        ("0,234", 0.234),
        ("1.234", 1.234),
        ("1.234.567", 1234567.0),
        ("12.00-", -12.0),
        ("1.5e3", 1500.0),
        ("EUR 17.808,00", 17808.0),
        (473, 473.0),
        (529.87, 529.87),
    ],
)
def test_parse_number(raw: Any, value: float) -> None:
    assert parse_number(raw) == pytest.approx(value)


def test_parse_number_empty_and_unparsed() -> None:
    assert parse_number(None) is None
    assert parse_number("  ") is None
    assert parse_number(math.nan) is None
    got = parse_number("n/a")
    assert isinstance(got, Unparsed)
    assert got == "n/a"


@pytest.mark.parametrize(
    ("raw", "order", "iso"),
    [
        ("2018-03-05", "YMD", "2018-03-05"),
        ("2018-03-05T10:00:00Z", "YMD", "2018-03-05"),
        ("20180305", "YMD", "2018-03-05"),
        ("05.03.2018", "DMY", "2018-03-05"),
        ("5.3.2018", "DMY", "2018-03-05"),
        ("05/03/2018", "DMY", "2018-03-05"),
        ("03/05/2018", "MDY", "2018-03-05"),
        ("13/03/2018", "MDY", "2018-03-13"),
        ("03/13/2018", "DMY", "2018-03-13"),
        ("05.03.18", "DMY", "2018-03-05"),
        ("5. März 2018", "DMY", "2018-03-05"),
        ("March 5, 2018", "YMD", "2018-03-05"),
        ("5 Mar 2018", "YMD", "2018-03-05"),
        ("05-Mar-2018", "YMD", "2018-03-05"),
        ("18/03/05", "YMD", "2018-03-05"),
        (dt.date(2018, 3, 5), "YMD", "2018-03-05"),
        (dt.datetime(2018, 3, 5, 12, 0), "YMD", "2018-03-05"),
    ],
)
def test_parse_date(raw: Any, order: str, iso: str) -> None:
    assert parse_date(raw, date_order=order) == iso


def test_parse_date_invalid_day_is_unparsed() -> None:
    assert isinstance(parse_date("31.02.2018", date_order="DMY"), Unparsed)
    assert isinstance(parse_date("soon"), Unparsed)
    assert parse_date("") is None


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("yes", True),
        ("Ja", True),
        ("TRUE", True),
        ("1", True),
        ("x", True),
        (1, True),
        (True, True),
        ("no", False),
        ("Nein", False),
        ("0", False),
        (0.0, False),
        (False, False),
    ],
)
def test_parse_bool(raw: Any, value: bool) -> None:
    assert parse_bool(raw) is value


def test_parse_bool_unknown() -> None:
    assert isinstance(parse_bool("maybe"), Unparsed)


@pytest.mark.parametrize(
    ("raw", "amount", "code"),
    [
        ("€ 1.234,50", 1234.5, "EUR"),
        ("1,234.50 USD", 1234.5, "USD"),
        ("£12", 12.0, "GBP"),
        (529.87, 529.87, None),
        ({"amount": "10,00", "currency": "chf"}, 10.0, "CHF"),
    ],
)
def test_parse_currency(raw: Any, amount: float, code: str | None) -> None:
    got_amount, got_code = parse_currency(raw)
    assert got_amount == pytest.approx(amount)
    assert got_code == code


def test_text_folds() -> None:
    assert normalize_text("  Lieferant\n GmbH ") == "lieferant gmbh"
    assert normalize_text("ＡＢＣ") == "abc"  # NFKC: full-width letters
    assert normalize_text("A.B-C", ignore_punctuation=True) == "abc"
    assert normalize_text("Ab", case_sensitive=True) == "Ab"
    assert normalize_text("a  b", normalize_whitespace=False) == "a  b"
    assert normalize_text("   ") is None


def test_is_empty() -> None:
    import pandas as pd

    empties: list[Any] = [None, math.nan, "", " \n", [], {}, pd.NA, pd.NaT]
    assert all(is_empty(v) for v in empties)
    assert not any(is_empty(v) for v in ("0", 0, 0.0, False, [1]))
