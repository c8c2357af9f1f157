"""Generated invoices whose every value is known by construction.

Each invoice (reportlab, text layer) prints:
- "Invoice No:" with the number to its right (next column);
- "Issue Date" with the date on the line below, always as DD/MM/YYYY;
- "Currency: EUR" in one cell;
- a table Description | Qty | Amount with the rows of ``items``;
- "Subtotal", "Total" and "Amount Due" (total minus a prepaid 10.00) right-aligned below it.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest

from fieldwise.service.engines.parsing import ParsedDocument, parse_document


@dataclass(frozen=True)
class Invoice:
    number: str
    day: int
    month: int
    items: tuple[tuple[str, int, float], ...]

    @property
    def total(self) -> float:
        return round(sum(a for _, _, a in self.items), 2)

    @property
    def due(self) -> float:
        return round(self.total - 10.0, 2)


INVOICES = (
    Invoice("INV-1001", 5, 3, (("Blue widgets", 3, 1234.5), ("Red gadgets", 12, 99.0))),
    Invoice("INV-1002", 11, 7, (("Paper", 10, 45.0), ("Ink cartridge black", 2, 80.25))),
    Invoice("INV-1003", 2, 12, (("Consulting", 8, 960.0),)),
)


def _money(value: float) -> str:
    return f"{value:,.2f}"


def render(invoice: Invoice) -> bytes:
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(595, 842), invariant=1)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, "Invoice No:")
    c.drawString(220, 780, invoice.number)
    c.drawString(72, 750, "Issue Date")
    c.drawString(72, 736, f"{invoice.day:02d}/{invoice.month:02d}/2024")
    c.drawString(72, 700, "Currency: EUR")
    y = 650
    c.drawString(72, y, "Description")
    c.drawString(320, y, "Qty")
    c.drawRightString(500, y, "Amount")
    for name, qty, amount in invoice.items:
        y -= 15
        c.drawString(72, y, name)
        c.drawString(320, y, str(qty))
        c.drawRightString(500, y, _money(amount))
    y -= 40
    for label, value in (
        ("Subtotal", invoice.total),
        ("Total", invoice.total),
        ("Amount Due", invoice.due),
    ):
        c.drawString(340, y, label)
        c.drawRightString(500, y, _money(value))
        y -= 15
    c.showPage()
    c.save()
    return buf.getvalue()


@pytest.fixture(scope="session")
def invoices() -> list[tuple[Invoice, ParsedDocument]]:
    return [(inv, parse_document(render(inv), ocr=False)) for inv in INVOICES]
