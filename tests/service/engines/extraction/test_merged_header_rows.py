"""Labels that share one cell with other labels (generated reportlab PDFs, de / fr / en).

A header table set with narrow columns reads as one cell per row: "Kundennummer
Rechnungsnummer Lieferdatum Rechnungsdatum" over "GE2020211 471102 01.03.2018 05.03.2018".
The value of a label is then the word under it, not the first of the row below; and in a run of
label-value pairs on one line ("Kunden-Nr. GE2020211 Rechnungs-Nr. 471102") an earlier pair's
words are not the later label's.
"""

from __future__ import annotations

import io

import pytest

from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.parsing import ParsedDocument, parse_document

CONFIG = validate_config(
    {
        "date_order": "DMY",
        "fields": [
            {
                "name": "number",
                "type": "string",
                "labels": ["Rechnungsnummer", "Rechnung Nr", "Nr", "Invoice No", "Facture N°"],
                "pattern": "[A-Za-z0-9][A-Za-z0-9./-]{2,}",
                "occurrence": "first",
            },
            {"name": "issued", "type": "date", "vocabulary": "issue_date"},
            {"name": "due", "type": "date", "vocabulary": "due_date"},
        ],
    }
)


def _render(rows: list[list[str]]) -> ParsedDocument:
    """Each row's texts in columns a narrow gap (less than a line's height) apart."""
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(595, 842), invariant=1)
    c.setFont("Helvetica", 9)
    widths = [
        max(c.stringWidth(row[i], "Helvetica", 9) for row in rows) for i in range(len(rows[0]))
    ]
    for r, row in enumerate(rows):
        x = 60.0
        for i, text in enumerate(row):
            c.drawString(x, 760 - 12 * r, text)
            x += widths[i] + 6
    c.showPage()
    c.save()
    return parse_document(buf.getvalue(), ocr=False)


@pytest.mark.parametrize(
    "header",
    [
        ["Kundennummer", "Rechnungsnummer", "Lieferdatum", "Rechnungsdatum", "Fälligkeitsdatum"],
        ["Customer No", "Invoice No", "Delivery date", "Invoice date", "Due date"],
        ["N° client", "Facture N°", "Date de livraison", "Date de facture", "Échéance"],
    ],
)
def test_a_label_in_a_header_row_reads_the_value_under_it(header: list[str]) -> None:
    doc = _render([header, ["GE2020211", "471102", "01.03.2018", "05.03.2018", "04.04.2018"]])
    got = extract(doc, CONFIG)["value"]
    assert got == {"number": "471102", "issued": "2018-03-05", "due": "2018-04-04"}


@pytest.mark.parametrize(
    "line",
    [
        "Kunden-Nr. GE2020211 Rechnungs-Nr. 471102 Datum 05.03.2018",
        "Customer No GE2020211 Invoice No 471102 Date 05.03.2018",
    ],
)
def test_an_earlier_pair_on_the_line_is_not_the_labels_context(line: str) -> None:
    got = extract(_render([[line]]), CONFIG)["value"]
    assert got == {"number": "471102", "issued": "2018-03-05"}
