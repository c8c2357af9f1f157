"""A receipt's date among OCR-glued times and date-shaped codes (generated text receipts).

Each receipt prints its date once, beside a time of day; the lines above it hold an article or
batch code that contains a date-shaped run of digits ("HD03-04-06-5/40/160", "0Z02-12/48").
"""

from __future__ import annotations

import pytest

from fieldwise.service.engines.extraction import validate_config
from fieldwise.service.engines.extraction.normalize import parse_date
from tests.service.engines.extraction.text_docs import read_lines

CONFIG = validate_config(
    {
        "date_order": "DMY",
        "lenient_dates": True,
        "fields": [{"name": "date", "type": "date"}],
    }
)


@pytest.mark.parametrize(
    ("printed", "iso"),
    [
        ("12Mar201818: 19", "2018-03-12"),  # OCR dropped the space before the time
        ("25/Feb/201707: 43: 54", "2017-02-25"),
        ("3 Sep 2024 9:41", "2024-09-03"),
        ("07 Jan 2019", "2019-01-07"),
    ],
)
def test_a_month_names_year_glued_to_a_time_still_ends_the_date(printed: str, iso: str) -> None:
    got = read_lines(CONFIG, "KEDAI MAJU SDN BHD", printed, "TOTAL 12.00")
    assert got["date"] == iso


@pytest.mark.parametrize(
    ("code", "printed", "iso"),
    [
        ("HD03-04-06-5/40/160", "19-09-1715: 39 SH01 T3", "2017-09-19"),
        ("0Z02-12/48", "28-12-1718: 52 SH01", "2017-12-28"),
        ("ORD #07-REG#19-10/03/2018 17: 24", "Thank you", "2018-03-10"),
    ],
)
def test_a_date_shaped_piece_of_a_code_is_not_the_date(code: str, printed: str, iso: str) -> None:
    got = read_lines(
        CONFIG, "KEDAI MAJU SDN BHD", "TOILET BRUSH *S", code, "9067860 1X2.70 2.70", printed
    )
    assert got["date"] == iso


def test_a_code_is_read_as_a_date_when_nothing_else_is() -> None:
    got = read_lines(CONFIG, "KEDAI MAJU SDN BHD", "HD03-04-06-5/40/160", "TOTAL 2.70")
    assert got["date"] == "2006-04-03"


def test_both_separators_of_a_numeric_date_are_alike() -> None:
    assert parse_date("02-12/48", "DMY") is None
    assert parse_date("02/12/48", "DMY") is not None
    assert parse_date("Leistung 01.02.2019-28.02.2019", "DMY") is not None


def test_a_day_and_month_whose_slash_ocr_dropped_are_still_read() -> None:
    got = read_lines(CONFIG, "KEDAI MAJU SDN BHD", "Tax Invoice", "2703/2018 No.: CS-20242")
    assert got["date"] == "2018-03-27"
    assert parse_date("2703/2018", "DMY", lenient=True) is not None
    assert parse_date("2703/2018", "DMY") is None  # only with lenient_dates
    assert parse_date("1327/2018", "DMY", lenient=True) is None  # no 27th month
    assert parse_date("12703/2018", "DMY", lenient=True) is None  # five digits: a number


def test_a_glued_day_and_month_is_the_weakest_reading() -> None:
    # a document number of the same shape does not outrank a date printed in full
    got = read_lines(CONFIG, "KEDAI MAJU SDN BHD", "Bill No: 0112/2019", "Date: 05/03/2019")
    assert got["date"] == "2019-03-05"
    parsed = parse_date("Bill 0112/2019 05/03/2019", "DMY", lenient=True)
    assert parsed is not None
    assert parsed.value == "2019-03-05"
