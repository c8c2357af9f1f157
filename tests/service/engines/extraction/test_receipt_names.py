"""A receipt's company and address when OCR glued what the printer spaced (generated text
receipts): a legal form glued to the name or to the registration number after it, a legal form
alone on the line under the name, a name that begins with digits, and a logo above the name
that repeats one of its words."""

from __future__ import annotations

import pytest

from tests.service.engines.extraction.text_docs import HEADER_CONFIG, read_lines

CASES = {
    "a legal form glued to the name": (
        (
            "sweetICEcreams",
            "Desa Park City",
            "Golden ScoopSdnBhd (169609-A)",
            "A-16-1, Tower A, Northpoint Office",
            "59200 Kuala Lumpur",
        ),
        "Golden Scoop SdnBhd",
        "A-16-1, Tower A, Northpoint Office, 59200 Kuala Lumpur",
    ),
    "a registration number glued to the legal form": (
        (
            "Anzel Advertising (M) Sdn bhd（759705-H)",
            "Unit G-5B, Ground Floor, Wisma Dua",
            "No 21, Jalan Pinang.",
            "50450 Kuala Lumpur, Malaysia",
        ),
        "Anzel Advertising (M) Sdn bhd",
        "Unit G-5B, Ground Floor, Wisma Dua, No 21, Jalan Pinang., 50450 Kuala Lumpur, Malaysia",
    ),
    "a legal form alone on its line, under a logo repeating a word of the name": (
        (
            "Peri's",
            "GRILLED CHICKEN",
            "Peri's Chickenland Malaysia",
            "Sdn Bhd",
            "Unit G-13, Ground Floor, No.1",
            "Jln Kiara, Mont Kiara",
            "50480 Kuala Lumpur",
        ),
        "Peri's Chickenland Malaysia Sdn Bhd",
        "Unit G-13, Ground Floor, No.1, Jln Kiara, Mont Kiara, 50480 Kuala Lumpur",
    ),
    "a name that begins with digits": (
        (
            "32 PUB & BISTRO OWN BY CNU TRADING",
            "78G, JALAN SS21/62,",
            "DAMANSARA UTAMA,",
            "47400 PETALING JAYA.",
        ),
        "32 PUB & BISTRO OWN BY CNU TRADING",
        "78G, JALAN SS21/62, DAMANSARA UTAMA, 47400 PETALING JAYA.",
    ),
}


@pytest.mark.parametrize(("header", "company", "address"), CASES.values(), ids=CASES.keys())
def test_the_name_and_the_address_under_it_are_read_through_ocrs_glue(
    header: tuple[str, ...], company: str, address: str
) -> None:
    got = read_lines(HEADER_CONFIG, *header, "Tel: 03-2163 2780", "TAX INVOICE", "TOTAL 7.40")
    assert got["company"] == company
    assert got["address"] == address


@pytest.mark.parametrize(
    ("lines", "name"),
    [
        (("TSH POWER HARDWARE", "     TRADING", "  002458685-T", "13-1, JALAN PJU 5/10"), None),
        (("AIK HUAT HARDWARE", "ENTERPRISE (SETIA", "ALAM) SINBHD", "822737-X"), None),
        (("KEDAI RUNCIT MAJU", "TEL: 03-8888 1234", "NO 7, JALAN MERANTI 3"), "KEDAI RUNCIT MAJU"),
        (("KEDAI RUNCIT MAJU", "TAX INVOICE", "NO 7, JALAN MERANTI 3"), "KEDAI RUNCIT MAJU"),
        (("KEDAI RUNCIT MAJU", "", "", "CAFE", "NO 7, JALAN MERANTI 3"), "KEDAI RUNCIT MAJU"),
    ],
)
def test_a_name_without_a_legal_form_goes_on_over_the_lines_of_letters_under_it(
    lines: tuple[str, ...], name: str | None
) -> None:
    # None: every line of letters before the first with a digit is the name
    got = read_lines(HEADER_CONFIG, *lines, "TOTAL 12.00")
    expected = name or " ".join(line.strip() for line in lines[:3] if line.strip()[0].isalpha())
    assert got["company"] == expected
