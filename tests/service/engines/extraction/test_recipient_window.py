"""The buyer of a letter-form invoice from the recipient's window (generated reportlab PDFs).

Each page is a letter: the seller's letterhead at the top, the recipient's address block in
the window at the top left (under a small sender line, or without one), the invoice's number
and date in a column to its right, sharing its rows, and no cue such as "Bill to" anywhere.
"""

from __future__ import annotations

import io

import pytest

from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.extraction.recipient import recipient_name
from fieldwise.service.engines.parsing import ParsedDocument, parse_document

CONFIG = validate_config(
    {
        "fields": [
            {"name": "seller", "type": "string", "strategy": "seller"},
            {"name": "buyer", "type": "string", "strategy": "buyer"},
        ]
    }
)
Item = tuple[float, float, str, float]  # x, y from the top, text, font size


def _render(items: list[Item]) -> ParsedDocument:
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(595, 842), invariant=1)
    for x, y, text, size in items:
        c.setFont("Helvetica", size)
        c.drawString(x, 842 - y, text)
    c.showPage()
    c.save()
    return parse_document(buf.getvalue(), ocr=False)


def _letter(sender: str | None, window: list[str], info: list[str]) -> list[Item]:
    items: list[Item] = [(57, 60, "Nordlicht Handel GmbH", 16)]
    if sender is not None:
        items.append((57, 135, sender, 7))
    for row, text in enumerate(window):
        items.append((57, 150 + 12 * row, text, 10))
    for row, text in enumerate(info):
        items.append((360, 150 + 12 * row, text, 10))
    items.append((57, 300, "Pos  Beschreibung  Menge  Betrag", 10))
    return items


@pytest.mark.parametrize(
    ("sender", "window", "info", "buyer"),
    [
        (
            "Nordlicht Handel GmbH · Hafenweg 1 · 20095 Hamburg",
            ["Firma", "Kunden Werk Mitte", "Kundenstraße 15", "69876 Frankfurt"],
            ["Rechnung Nr. 471102", "Datum 05.03.2018"],
            "Kunden Werk Mitte",
        ),
        (
            "Nordlicht Handel GmbH - 12 rue du Port - 75001 Paris",
            ["Madame", "Claire Dubois", "8 avenue des Fleurs", "69002 Lyon"],
            ["Facture N° 471102", "Date 05/03/2018"],
            "Claire Dubois",
        ),
        (
            "Nordlicht Handel GmbH, 4 Harbour Road, London SW1A 1AA",
            ["Attn", "Harbour Office Supplies", "12 Station Road", "SW1A 2BB London"],
            ["Invoice No 471102", "Date 05/03/2018"],
            "Harbour Office Supplies",
        ),
    ],
)
def test_the_buyer_is_the_first_name_in_the_window_under_the_sender_line(
    sender: str, window: list[str], info: list[str], buyer: str
) -> None:
    doc = _render(_letter(sender, window, info))
    got = extract(doc, CONFIG)["value"]
    assert got == {"seller": "Nordlicht Handel GmbH", "buyer": buyer}


def test_without_a_sender_line_no_window_is_guessed() -> None:
    # an address block alone is no evidence whose it is (tried: it read the wrong party)
    doc = _render(
        _letter(
            None,
            ["Herrn", "Max Beispiel", "Lindenallee 3", "D-50667 Köln"],
            ["Rechnungsnummer 471102", "Rechnungsdatum 05.03.2018"],
        )
    )
    assert recipient_name(doc.pages) is None
    assert extract(doc, CONFIG)["value"] == {"seller": "Nordlicht Handel GmbH"}


def test_the_sellers_name_is_never_read_from_the_window() -> None:
    sender = "Nordlicht Handel GmbH · Hafenweg 1 · 20095 Hamburg"
    doc = _render(_letter(sender, ["Nordlicht Handel GmbH", "Hafenweg 1", "20095 Hamburg"], []))
    assert recipient_name(doc.pages) == ("Nordlicht Handel GmbH", 2)
    assert recipient_name(doc.pages, exclude=("Nordlicht Handel GmbH",)) is None


def test_a_page_without_a_window_gives_no_buyer() -> None:
    doc = _render([(57, 60, "Nordlicht Handel GmbH", 16), (57, 300, "Pos  Menge  Betrag", 10)])
    assert recipient_name(doc.pages) is None
    assert "buyer" not in extract(doc, CONFIG)["value"]
