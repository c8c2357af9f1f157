"""Each format parses to the text it holds, with boxes and Markdown."""

from __future__ import annotations

import io
import json

from fieldwise.service.engines.parsing import ParsedDocument, parse_document, sniff_format
from tests.service.engines.parsing.conftest import make_invoice_pdf


def test_pdf_text_layer_words_lines_and_boxes(invoice_pdf: bytes) -> None:
    doc = parse_document(invoice_pdf, filename="invoice.pdf", ocr=False)
    assert doc.format == "pdf"
    assert len(doc.pages) == 1
    page = doc.pages[0]
    assert (round(page.width), round(page.height)) == (595, 842)
    assert page.source == "text"
    texts = [line.text for line in page.lines]
    assert texts[0] == "ACME Supplies"
    assert "Invoice No: INV-2041" in texts
    assert "Blue widgets 3 1,234.50" in texts
    word = next(w for w in page.words if w.text == "INV-2041")
    # drawn at x=200 pt, baseline 740 pt from the bottom: top-left origin puts it near y=100
    assert 199 <= word.box.x0 <= 201
    assert 90 <= word.box.y0 < word.box.y1 <= 106


def test_pdf_markdown_has_heading_and_table(invoice_pdf: bytes) -> None:
    doc = parse_document(invoice_pdf, ocr=False)
    assert doc.markdown.startswith("# ACME Supplies")
    assert "| Description | Qty | Amount |" in doc.markdown
    assert "| Blue widgets | 3 | 1,234.50 |" in doc.markdown


def test_to_json_round_trips_pages_and_boxes(invoice_pdf: bytes) -> None:
    doc = parse_document(invoice_pdf, ocr=False)
    data = json.loads(doc.to_json_str())
    assert data["page_count"] == 1
    line = data["pages"][0]["lines"][0]
    assert line["text"] == "ACME Supplies"
    assert len(line["box"]) == 4
    assert line["words"][0]["text"] == "ACME"


def test_docx_headings_paragraphs_tables() -> None:
    import docx

    document = docx.Document()
    document.add_heading("Quarterly order", level=1)
    document.add_paragraph("Invoice No: Q-77")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Item", "Amount"
    table.cell(1, 0).text, table.cell(1, 1).text = "Chairs", "250.00"
    buf = io.BytesIO()
    document.save(buf)
    doc = parse_document(buf.getvalue(), filename="order.docx")
    assert doc.format == "docx"
    assert "Invoice No: Q-77" in doc.text
    assert doc.markdown.startswith("# Quarterly order")
    assert "| Item | Amount |\n| --- | --- |\n| Chairs | 250.00 |" in doc.markdown
    chairs = next(line for line in doc.pages[0].lines if line.text.startswith("Chairs"))
    assert [w.text for w in chairs.words] == ["Chairs", "250.00"]


def test_html_sniffed_without_name() -> None:
    html = (
        b"<!DOCTYPE html><html><head><title>x</title><style>p{}</style></head><body>"
        b"<h2>Receipt</h2><p>Total: <b>12.50 EUR</b></p>"
        b"<table><tr><th>Item</th><th>Qty</th></tr><tr><td>Tea</td><td>2</td></tr></table>"
        b"<script>var hidden = 1;</script></body></html>"
    )
    doc = parse_document(html)
    assert doc.format == "html"
    assert "Total: 12.50 EUR" in doc.text
    assert "hidden" not in doc.text
    assert doc.markdown.startswith("## Receipt")
    assert "| Tea | 2 |" in doc.markdown


def test_text_keeps_columns_and_csv_is_a_table() -> None:
    text = "Order 17\n\nItem        Qty   Price\nPens          4   3.20\nInk           1   9.99\n"
    doc = parse_document(text.encode(), filename="order.txt")
    assert doc.format == "text"
    assert doc.pages[0].lines[0].text == "Order 17"
    assert "| Pens | 4 | 3.20 |" in doc.markdown
    csv_doc = parse_document(b"sku;qty\nA-1;4\nB-2;7\n", filename="stock.csv")
    assert csv_doc.format == "csv"
    assert csv_doc.markdown == "| sku | qty |\n| --- | --- |\n| A-1 | 4 |\n| B-2 | 7 |"


def test_magic_bytes_win_over_the_name(invoice_pdf: bytes) -> None:
    assert sniff_format(invoice_pdf, "notes.txt", "text/plain") == "pdf"
    assert sniff_format(b"plain words", None, None) == "text"
    assert sniff_format(b"a,b\n1,2\n", "x.csv", None) == "csv"


def test_multi_page_pdf_numbers_pages() -> None:
    doc = parse_document(make_invoice_pdf(pages=3), ocr=False)
    assert [p.number for p in doc.pages] == [1, 2, 3]
    assert isinstance(doc, ParsedDocument)
    assert doc.text.count("INV-2041") == 3
