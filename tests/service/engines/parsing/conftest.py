"""Documents generated on the fly: a text-layer invoice PDF, its scanned twin, DOCX, HTML.

``invoice_pdf`` prints, at known places: "ACME Supplies" (18 pt heading), "Invoice No: INV-2041",
"Date: 05/03/2024", and a 3-column table Description | Qty | Amount with two rows and a total.
"""

from __future__ import annotations

import io

import pytest

INVOICE_LINES = [
    ("Invoice No:", "INV-2041"),
    ("Date:", "05/03/2024"),
]
ITEMS = [("Blue widgets", "3", "1,234.50"), ("Red gadgets", "12", "99.00")]


def make_invoice_pdf(pages: int = 1) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1)
    for _ in range(pages):
        c.setFont("Helvetica-Bold", 18)
        c.drawString(72, 780, "ACME Supplies")
        c.setFont("Helvetica", 10)
        y = 740
        for label, value in INVOICE_LINES:
            c.drawString(72, y, label)
            c.drawString(200, y, value)
            y -= 16
        y -= 20
        for x, head in ((72, "Description"), (300, "Qty"), (400, "Amount")):
            c.drawString(x, y, head)
        for row in ITEMS:
            y -= 16
            c.drawString(72, y, row[0])
            c.drawString(300, y, row[1])
            c.drawString(400, y, row[2])
        y -= 40
        c.drawString(300, y, "Total")
        c.drawString(400, y, "1,333.50")
        c.showPage()
    c.save()
    return buf.getvalue()


@pytest.fixture(scope="session")
def invoice_pdf() -> bytes:
    return make_invoice_pdf()


@pytest.fixture(scope="session")
def scanned_png(invoice_pdf: bytes) -> bytes:
    """The invoice rendered to a 144 dpi PNG: no text layer, only pixels."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(invoice_pdf)
    image = document[0].render(scale=2).to_pil()
    document.close()
    buf = io.BytesIO()
    image.crop((0, 0, image.width, image.height // 2)).save(buf, "PNG")
    return buf.getvalue()
