"""Seller and buyer blocks set side by side (generated reportlab PDFs, de / fr / en).

The two blocks stand in two columns a narrow gap apart, so each line holds both parties' text
in one cell ("Nordlicht Handel GmbH Kunden Werk AG"). Above them, a label line begins with a
cue word ("Kundennummer", "Customer number:") and the seller's name begins with one
("Lieferant", the German for supplier): neither opens a block. The seller must be the left
block's name, the buyer the right one's.
"""

from __future__ import annotations

import io

import pytest

from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.parsing import ParsedDocument, parse_document

CONFIG = validate_config(
    {
        "fields": [
            {"name": "seller", "type": "string", "strategy": "seller"},
            {"name": "buyer", "type": "string", "strategy": "buyer"},
        ]
    }
)


def _render(rows: list[tuple[str, str]], above: str) -> ParsedDocument:
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(595, 842), invariant=1)
    c.setFont("Helvetica", 10)
    c.drawString(60, 760, above)
    # the right block's column starts a narrow gap (less than a line's height) after the
    # left block's widest line
    column = 60 + max(c.stringWidth(left, "Helvetica", 10) for left, _ in rows) + 8
    for row, (left, right) in enumerate(rows):
        y = 730 - 12 * row
        c.drawString(60, y, left)
        c.drawString(column, y, right)
    c.showPage()
    c.save()
    return parse_document(buf.getvalue(), ocr=False)


@pytest.mark.parametrize(
    ("headings", "seller", "buyer", "above"),
    [
        (("Verkäufer", "Käufer"), "Lieferant Nord GmbH", "Kunden Werk AG", "Kundennummer: 4711"),
        (("Vendeur", "Acheteur"), "Atelier Nord SARL", "Client Sud SA", "Numéro client : 4711"),
        (
            ("Seller", "Buyer"),
            "Harbour Supplies Ltd",
            "Customer Works Inc.",
            "Customer number: 4711",
        ),
        # a name goes on after its legal form ("Kunden AG Mitte": a branch's name)
        (("Verkäufer", "Käufer"), "Lieferant Nord GmbH", "Kunden AG Mitte", "Kundennr.: 4711"),
    ],
)
def test_side_by_side_blocks_keep_their_parties(
    headings: tuple[str, str], seller: str, buyer: str, above: str
) -> None:
    rows = [
        headings,
        (seller, buyer),
        ("Hafenweg 1", "Kundenweg 8"),
        ("20095 Hamburg", "69876 Frankfurt"),
    ]
    doc = _render(rows, above)
    assert extract(doc, CONFIG)["value"] == {"seller": seller, "buyer": buyer}
