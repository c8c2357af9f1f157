"""Labels glued to their values in the text layer (generated reportlab PDFs).

An HTML-to-PDF renderer that lays label and value out in adjacent boxes leaves no space
between them when the label fills its box: the page's text layer holds "Rechnungsnummer:471102"
as one word. Each PDF draws such words (German, French, English) among ordinary ones; the
engine must find the glued labels and their values, and leave times, URLs and ordinary words
whole.
"""

from __future__ import annotations

import io

import pytest

from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.extraction.glued import unglue
from fieldwise.service.engines.parsing import ParsedDocument, parse_document

CONFIG = validate_config(
    {
        "date_order": "DMY",
        "fields": [
            {
                "name": "number",
                "type": "string",
                "labels": ["Rechnungsnummer", "Numéro de facture", "Invoice number", "Nr"],
                "pattern": "[A-Za-z0-9][A-Za-z0-9./-]{2,}",
                "occurrence": "first",
            },
            {"name": "issued", "type": "date", "vocabulary": "issue_date"},
        ],
    }
)


def _render(lines: list[str]) -> ParsedDocument:
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(595, 842), invariant=1)
    c.setFont("Helvetica", 10)
    for row, text in enumerate(lines):
        c.drawString(300, 742 - 14 * row, text)
    c.showPage()
    c.save()
    return parse_document(buf.getvalue(), ocr=False)


@pytest.mark.parametrize(
    ("number", "date"),
    [
        ("Rechnungsnummer:471102", "Rechnungsdatum:05.03.2018"),
        ("Numéro de facture:471102", "Date de facture:05.03.2018"),
        ("Invoice number:471102", "Invoice date:05.03.2018"),
    ],
)
def test_a_label_glued_to_its_value_is_found(number: str, date: str) -> None:
    # a weaker label with another number comes first in reading order
    doc = _render(["Kunden Nr. 40711", number, date, "Lieferdatum: 01.03.2018"])
    got = extract(doc, CONFIG)["value"]
    assert got == {"number": "471102", "issued": "2018-03-05"}


def test_times_urls_and_plain_words_keep_their_colons() -> None:
    doc = _render(["Zeit 10:35", "https://example.org/a", "Hinweis: siehe unten", "Art:Referenz"])
    lines = [line.text for line in unglue(doc).pages[0].lines]
    assert lines == ["Zeit 10:35", "https://example.org/a", "Hinweis: siehe unten", "Art: Referenz"]


def test_a_document_without_glued_words_is_returned_as_it_is() -> None:
    doc = _render(["Rechnungsnummer: 471102"])
    assert unglue(doc) is doc
