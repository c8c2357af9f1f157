"""Party names over two lines beside their label (generated reportlab PDFs).

The seller block prints "Name:" in a label column and the name in a value column; a long name
is set as two tight lines with the label beside the second one. The street and city lines
under the name sit in the same column and must not join it.
"""

from __future__ import annotations

import io

from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.parsing import ParsedDocument, parse_document

CONFIG = validate_config(
    {
        "fields": [
            {
                "name": "seller_name",
                "type": "string",
                "labels": ["Name"],
                "section": ["Verkäufer", "Seller"],
            },
            {"name": "city", "type": "string", "labels": ["Anschrift", "Address"]},
        ]
    }
)


def _render(rows: list[tuple[str, str]]) -> ParsedDocument:
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(595, 842), invariant=1)
    c.setFont("Helvetica", 10)
    y = 780.0
    for label, value in rows:
        if label == "--":  # a blank line between blocks
            y -= 24
            continue
        if label:
            c.drawString(70, y, label)
        if value:
            c.drawString(260, y, value)
        y -= 12
    c.showPage()
    c.save()
    return parse_document(buf.getvalue(), ocr=False)


def test_a_name_begun_on_the_line_above_its_label_is_read_whole() -> None:
    doc = _render(
        [
            ("Verkäufer", ""),
            ("Nummer: 549910", ""),
            ("", "Nordhafen Muster"),
            ("Name:", "Versicherungsverein Seestadt a.G."),
            ("Anschrift:", "Hafenweg 12"),
            ("", "DE 20095 Hamburg"),
        ]
    )
    got = extract(doc, CONFIG)["value"]
    assert got["seller_name"] == "Nordhafen Muster\nVersicherungsverein Seestadt a.G."
    assert got["city"] == "Hafenweg 12"  # the city line below is not pulled up into it


def test_a_line_with_its_own_label_or_after_a_gap_does_not_join() -> None:
    doc = _render(
        [
            ("Seller", ""),
            ("", "Letterhead Trading"),
            ("--", ""),
            ("Name:", "Kontor Weber GmbH"),
            ("Address:", "Kaistrasse 4"),
        ]
    )
    assert extract(doc, CONFIG)["value"]["seller_name"] == "Kontor Weber GmbH"
