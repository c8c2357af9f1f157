"""Multi-line address blocks: street, postcode + city and state lines kept together, and a
date or time line never taken as (part of) an address. Generated text receipts."""

from __future__ import annotations

from typing import Any

from fieldwise.service.engines.extraction import validate_config
from tests.service.engines.extraction.text_docs import read_lines

CONFIG = validate_config(
    {
        "date_order": "DMY",
        "fields": [
            {"name": "company", "type": "string", "strategy": "seller"},
            {"name": "address", "type": "string", "strategy": "address"},
        ],
    }
)


def _read(*lines: str) -> dict[str, Any]:
    return read_lines(CONFIG, *lines)


def test_street_postcode_and_state_lines_are_one_address() -> None:
    got = _read(
        "KEDAI RUNCIT MAJU SDN BHD",
        "NO 7, JALAN MERANTI 3",
        "47100 PUCHONG",
        "SELANGOR",
        "TEL: 03-8888 1234",
        "TOTAL 12.00",
    )
    assert got["address"] == "NO 7, JALAN MERANTI 3, 47100 PUCHONG, SELANGOR"


def test_a_date_and_time_line_under_the_name_is_not_an_address() -> None:
    got = _read("KEDAI RUNCIT MAJU SDN BHD", "12Mar2018 18: 19", "TOTAL 12.00")
    assert got["company"] == "KEDAI RUNCIT MAJU SDN BHD"
    assert "address" not in got


def test_the_address_ends_at_a_date_line() -> None:
    got = _read(
        "KEDAI RUNCIT MAJU SDN BHD",
        "NO 7, JALAN MERANTI 3",
        "03/04/2018 09:41",
        "TOTAL 12.00",
    )
    assert got["address"] == "NO 7, JALAN MERANTI 3"
