"""A receipt's company and address when OCR glued what the printer spaced (generated text
receipts): a legal form glued to the name or to the registration number after it, a legal form
alone on the line under the name, a name that begins with digits, and a logo above the name
that repeats one of its words."""

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
    return read_lines(CONFIG, *lines, "Tel: 03-2163 2780", "TAX INVOICE", "TOTAL 7.40")


def test_a_legal_form_glued_to_the_name_is_read() -> None:
    got = _read(
        "sweetICEcreams",
        "Desa Park City",
        "Golden ScoopSdnBhd (169609-A)",
        "A-16-1, Tower A, Northpoint Office",
        "59200 Kuala Lumpur",
    )
    assert got["company"] == "Golden Scoop SdnBhd"
    assert got["address"] == "A-16-1, Tower A, Northpoint Office, 59200 Kuala Lumpur"


def test_a_registration_number_glued_to_the_legal_form_is_not_part_of_the_name() -> None:
    got = _read(
        "Anzel Advertising (M) Sdn bhd（759705-H)",
        "Unit G-5B, Ground Floor, Wisma Dua",
        "No 21, Jalan Pinang.",
        "50450 Kuala Lumpur, Malaysia",
    )
    assert got["company"] == "Anzel Advertising (M) Sdn bhd"
    assert got["address"] == (
        "Unit G-5B, Ground Floor, Wisma Dua, No 21, Jalan Pinang., 50450 Kuala Lumpur, Malaysia"
    )


def test_a_legal_form_alone_on_its_line_takes_the_name_above_and_the_logo_is_skipped() -> None:
    got = _read(
        "Peri's",
        "GRILLED CHICKEN",
        "Peri's Chickenland Malaysia",
        "Sdn Bhd",
        "Unit G-13, Ground Floor, No.1",
        "Jln Kiara, Mont Kiara",
        "50480 Kuala Lumpur",
    )
    assert got["company"] == "Peri's Chickenland Malaysia Sdn Bhd"
    assert (
        got["address"] == "Unit G-13, Ground Floor, No.1, Jln Kiara, Mont Kiara, 50480 Kuala Lumpur"
    )


def test_a_name_may_begin_with_digits_an_address_line_does_not_look_like_one() -> None:
    got = _read(
        "32 PUB & BISTRO OWN BY CNU TRADING",
        "78G, JALAN SS21/62,",
        "DAMANSARA UTAMA,",
        "47400 PETALING JAYA.",
    )
    assert got["company"] == "32 PUB & BISTRO OWN BY CNU TRADING"
    assert got["address"] == "78G, JALAN SS21/62, DAMANSARA UTAMA, 47400 PETALING JAYA."
