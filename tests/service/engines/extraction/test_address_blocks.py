"""Multi-line address blocks: street, postcode + city and state lines kept together, and a
date or time line never taken as (part of) an address. Generated text receipts."""

from __future__ import annotations

from typing import Any

import pytest

from fieldwise.service.engines.extraction import validate_config
from tests.service.engines.extraction.text_docs import HEADER_CONFIG, read_lines

# the address also read under an "Address" label, as a receipt config may ask
LABELLED_CONFIG = validate_config(
    {
        "fields": [
            {"name": "company", "type": "string", "strategy": "seller"},
            {"name": "address", "type": "string", "strategy": "address", "labels": ["Address"]},
        ],
    }
)


def _read(*lines: str) -> dict[str, Any]:
    return read_lines(HEADER_CONFIG, *lines)


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


# (what the case shows, the receipt's lines, the address read from them)
BLOCKS = {
    "the gap is measured from the skipped registration lines": (
        (
            "LIAN CHI VEGETARIAN SDN BHD",
            "",
            "(1095514-X)",
            "(GST ID No: 001147416576)",
            "",
            "54, JALAN SS23/11",
            "TAMAN SEA, 47400 PETALING JAYA",
            "TEL: 03-7805 7889",
        ),
        "54, JALAN SS23/11, TAMAN SEA, 47400 PETALING JAYA",
    ),
    "lines without a digit before the address are not part of it": (
        (
            "THREE STOOGES SDN BHD",
            "BISTRO & CAFE",
            "formerly known as Three Clowns",
            "109, SS21/1A,",
            "DAMANSARA UTAMA",
            "GSTID: 001661886464",
            "TOTAL 12.00",
        ),
        "109, SS21/1A, DAMANSARA UTAMA",
    ),
    "a date line between the name and the address is skipped": (
        (
            "KEDAI RUNCIT MAJU SDN BHD",
            "12Mar2018 18:19",
            "(867388-U)",
            "12, Jalan Tampoi 7/4, Kawasan Perindustrian",
            "Tampoi, 81200 Johor Bahru, Johor",
            "TAXINVOICE",
            "TOTAL 12.00",
        ),
        "12, Jalan Tampoi 7/4, Kawasan Perindustrian, Tampoi, 81200 Johor Bahru, Johor",
    ),
    "a lot's number is not a postcode": (
        (
            "KEDAI RUNCIT MAJU SDN BHD",
            "LOT 1851-A & 1851-B, JALAN KPB 6,",
            "KAWASAN PERINDUSTRIAN BALAKONG,",
            "43300 SERI KEMBANGAN, SELANGOR",
            "(GST ID NO : 000306020352)",
            "TOTAL 12.00",
        ),
        "LOT 1851-A & 1851-B, JALAN KPB 6, KAWASAN PERINDUSTRIAN BALAKONG, "
        "43300 SERI KEMBANGAN, SELANGOR",
    ),
    "city and state lines after the postcode are kept": (
        (
            "KEDAI RUNCIT MAJU SDN BHD",
            "NO 2-1-1 JALAN SETIA PRIMA Q",
            "U 13/Q SETIA ALAM 40170",
            "SHAH ALAM",
            "SELANGOR",
            "TEL 03-5555 1234",
            "TOTAL 12.00",
        ),
        "NO 2-1-1 JALAN SETIA PRIMA Q, U 13/Q SETIA ALAM 40170, SHAH ALAM, SELANGOR",
    ),
    "a company registration after the address is not part of it": (
        (
            "KEDAI RUNCIT MAJU SDN BHD",
            "NO 7, JALAN MERANTI 3,",
            "BANDAR BUKIT RAJA, 41050",
            "KLANG SELANGOR D.E",
            "ROC No. : (1072825-A)",
            "TOTAL 12.00",
        ),
        "NO 7, JALAN MERANTI 3, BANDAR BUKIT RAJA, 41050, KLANG SELANGOR D.E",
    ),
    "a postcode line naming its city and its state ends the address": (
        (
            "KEDAI RUNCIT MAJU SDN BHD",
            "LOT 1626, MUKIM KAMPUNG LAUT, TUMPAT",
            "16200 PALEKBANG, KELANTAN",
            "PREPAY CHIT NUMBER",
            "TOTAL 12.00",
        ),
        "LOT 1626, MUKIM KAMPUNG LAUT, TUMPAT, 16200 PALEKBANG, KELANTAN",
    ),
    "a branch line repeating the brand is not the address": (
        (
            "Peri's Chickenland Malaysia Sdn Bhd",
            "Peri's 1 Mont Kiara",
            "Unit G-13, Ground Floor, No.1",
            "Jln Kiara, Mont Kiara",
            "50480 Kuala Lumpur",
            "TOTAL 12.00",
        ),
        "Unit G-13, Ground Floor, No.1, Jln Kiara, Mont Kiara, 50480 Kuala Lumpur",
    ),
}


@pytest.mark.parametrize(("lines", "want"), BLOCKS.values(), ids=BLOCKS.keys())
def test_the_address_block_begins_and_ends_where_the_address_does(
    lines: tuple[str, ...], want: str
) -> None:
    assert _read(*lines)["address"] == want


@pytest.mark.parametrize("next_label", ["GST No.", "Tel:", "Customer #"])
def test_an_address_label_over_the_next_label_of_a_form_has_no_value(next_label: str) -> None:
    # a credit note's customer block: its address line is empty, the shop's address is the
    # one under the name
    got = read_lines(
        LABELLED_CONFIG,
        "KEDAI RUNCIT MAJU SDN BHD",
        "NO 7, JALAN MERANTI 3",
        "47100 PUCHONG",
        "TEL: 03-8888 1234",
        "CREDIT NOTE",
        "Name : AHMAD 012-6369400",
        "Address",
        next_label,
        "TOTAL 12.00",
    )
    assert got["address"] == "NO 7, JALAN MERANTI 3, 47100 PUCHONG"


@pytest.mark.parametrize(
    ("after", "country"),
    [
        ("SUNWAY VELOCITY", "MALAYSIA"),  # the mall the branch is in
        ("Filiale Mitte", "Deutschland"),
        ("CITY MALL", "United Kingdom"),
    ],
)
def test_the_address_ends_at_its_country(after: str, country: str) -> None:
    got = _read(
        "KEDAI RUNCIT MAJU SDN BHD",
        "NO 7, JALAN MERANTI 3,",
        f"47100 PUCHONG, {country}",
        after,
        "",
        "TOTAL 12.00",
    )
    assert got["address"] == f"NO 7, JALAN MERANTI 3, 47100 PUCHONG, {country}"


# a logo OCR read nothing of: the text page's first quarter (where a name is looked for) blank
_LOGO = ("",) * 18


def test_a_page_opening_with_its_address_reads_it_without_a_name() -> None:
    # the shop's name printed as a logo that OCR did not read: no seller, the address first
    got = _read(
        *_LOGO,
        "K3-113,JL MERANTI 3",
        "47100 PUCHONG",
        "SELANGOR",
        "H/P: 019-7521215",
        "09/03/2018 21:28",
        "CASH",
        "RM 170.00",
    )
    assert "company" not in got
    assert got["address"] == "K3-113,JL MERANTI 3, 47100 PUCHONG, SELANGOR"


def test_without_a_name_no_address_is_read_from_lines_without_a_postcode() -> None:
    got = _read(*_LOGO, "K3-113,JL MERANTI 3", "H/P: 019-7521215", "CASH", "RM 170.00")
    assert "company" not in got
    assert "address" not in got
