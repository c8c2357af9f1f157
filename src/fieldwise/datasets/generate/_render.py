"""Render an invoice as a text PDF with reportlab, in one of the layouts."""

from __future__ import annotations

import io
import zlib
from decimal import Decimal

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfgen.canvas import Canvas

from fieldwise.datasets.generate._content import Invoice, LineItem
from fieldwise.datasets.generate._layouts import (
    InvoiceLayout,
    format_date,
    format_money,
    format_quantity,
)

__all__ = ["render_invoice"]

_MARGIN = 50.0
_GREY = (0.4, 0.4, 0.4)
_DETAIL_LAYOUTS = ("modern", "uk-ledger")


def render_invoice(invoice: Invoice, layout: InvoiceLayout) -> bytes:
    """The invoice as PDF bytes; identical input gives identical bytes (invariant mode)."""
    pages = _Drawing(invoice, layout, total_pages=0).render()[1]
    return _Drawing(invoice, layout, total_pages=pages).render()[0]


class _Drawing:
    """One pass over the page content; the first pass only counts pages for "Page n of N"."""

    def __init__(self, invoice: Invoice, layout: InvoiceLayout, total_pages: int) -> None:
        self.inv = invoice
        self.lay = layout
        self.total_pages = total_pages
        self.size = A4 if layout.page == "A4" else LETTER
        self.width, self.height = self.size
        self.buffer = io.BytesIO()
        # invariant=1: fixed dates and document id, so the same seed gives the same bytes.
        self.c = Canvas(self.buffer, pagesize=self.size, invariant=1, pageCompression=1)
        self.c.setCreator("fieldwise sample generator")
        self.page = 1
        self.y = self.height - _MARGIN
        amount_x = self.width - _MARGIN
        self.col_x = (_MARGIN, amount_x - 230, amount_x - 115, amount_x)

    def render(self) -> tuple[bytes, int]:
        self._header()
        self._table()
        self._totals()
        self._footer()
        self.c.showPage()
        self.c.save()
        return self.buffer.getvalue(), self.page

    def money(self, value: Decimal) -> str:
        return format_money(value, self.inv.currency, self.lay.number_style, self.lay.money_style)

    def text(self, x: float, y: float, value: str, *, bold: bool = False, size: float = 0.0,
             right: bool = False, grey: bool = False) -> None:  # fmt: skip
        font = self.lay.bold if bold else self.lay.font
        self.c.setFont(font, size or self.lay.size)
        self.c.setFillColorRGB(*(_GREY if grey else (0, 0, 0)))
        (self.c.drawRightString if right else self.c.drawString)(x, y, value)

    def _header(self) -> None:
        lay, inv, size = self.lay, self.inv, self.lay.size
        right = self.width - _MARGIN
        vendor_x, title_x = (right, _MARGIN) if lay.vendor_right else (_MARGIN, right)
        y = self.height - _MARGIN
        self.text(vendor_x, y, inv.vendor.name, bold=True, size=size + 5, right=lay.vendor_right)
        for line in (inv.vendor.street, inv.vendor.city, inv.vendor.country,
                     f"VAT ID: {inv.vendor.vat_id}"):  # fmt: skip
            y -= size + 3
            self.text(vendor_x, y, line, size=size - 0.5, right=lay.vendor_right, grey=True)
        self.c.setFillColorRGB(*lay.rule_color)
        self.c.setFont(lay.bold, size + 9)
        title_draw = self.c.drawString if lay.vendor_right else self.c.drawRightString
        title_draw(title_x, self.height - _MARGIN - 4, lay.title)
        y -= 14
        self.c.setStrokeColorRGB(*lay.rule_color)
        self.c.setLineWidth(1.2)
        self.c.line(_MARGIN, y, right, y)
        self.y = y - size - 12
        meta = self._meta()
        if lay.label_position == "left":
            top = self.y
            self._customer(_MARGIN)
            bottom = self.y
            self.y = top
            for label, value in meta:
                self.text(self.width / 2 + 30, self.y, f"{label}:")
                self.text(right, self.y, value, bold=True, right=True)
                self.y -= size + 5
            self.y = min(self.y, bottom)
        else:
            column = (right - _MARGIN) / max(len(meta), 1)
            for index, (label, value) in enumerate(meta):
                x = _MARGIN + index * column
                self.text(x, self.y, label, size=size - 2, grey=True)
                self.text(x, self.y - size - 3, value, bold=True)
            self.y -= 2 * size + 22
            self._customer(_MARGIN)
        self.y -= 18

    def _meta(self) -> list[tuple[str, str]]:
        lay, inv = self.lay, self.inv
        meta = [(lay.labels["number"], inv.number),
                (lay.labels["date"], format_date(inv.issue_date, lay.date_format))]  # fmt: skip
        if inv.due_date is not None:
            meta.append((lay.labels["due"], format_date(inv.due_date, lay.date_format)))
        if inv.po_number is not None:
            meta.append((lay.labels["po"], inv.po_number))
        if lay.labels["currency"]:
            meta.append((lay.labels["currency"], inv.currency))
        return meta

    def _customer(self, x: float) -> None:
        size, party = self.lay.size, self.inv.customer
        self.text(x, self.y, self.lay.labels["bill_to"], bold=True, size=size - 0.5)
        for index, line in enumerate((party.name, party.street, party.city, party.country)):
            self.y -= size + 3
            self.text(x, self.y, line, bold=index == 0)
        self.y -= size + 3

    def _table_header(self) -> None:
        size = self.lay.size
        self.c.setStrokeColorRGB(*self.lay.rule_color)
        self.c.setLineWidth(0.8)
        self.c.line(_MARGIN, self.y + size + 3, self.col_x[3], self.y + size + 3)
        for index, (x, label) in enumerate(zip(self.col_x, self.lay.columns, strict=True)):
            self.text(x, self.y, label, bold=True, right=index > 0)
        self.c.line(_MARGIN, self.y - 5, self.col_x[3], self.y - 5)
        self.y -= size + 10

    def _table(self) -> None:
        self._table_header()
        for position, item in enumerate(self.inv.items, start=1):
            if self.y - self.lay.row_height < _MARGIN + 40:
                self.text(self.col_x[3], self.y, "continued on next page", size=self.lay.size - 2,
                          right=True, grey=True)  # fmt: skip
                self._new_page()
                self._table_header()
            self._row(position, item)

    def _row(self, position: int, item: LineItem) -> None:
        lay = self.lay
        self.text(self.col_x[0], self.y, item.description)
        self.text(
            self.col_x[1], self.y, format_quantity(item.quantity, lay.number_style), right=True
        )
        self.text(self.col_x[2], self.y, self.money(item.unit_price), right=True)
        self.text(self.col_x[3], self.y, self.money(item.amount), right=True)
        if lay.name in _DETAIL_LAYOUTS:
            code = zlib.crc32(item.description.encode("utf-8")) % 90000 + 10000
            detail = f"Pos. {position:02d} · article {code}"
            self.text(
                self.col_x[0] + 8, self.y - lay.size - 1, detail, size=lay.size - 2.5, grey=True
            )
        self.y -= lay.row_height

    def _totals(self) -> None:
        lay, inv, size = self.lay, self.inv, self.lay.size
        if self.y - 4 * (size + 8) < _MARGIN + 60:
            self._new_page()
        self.c.setStrokeColorRGB(*lay.rule_color)
        self.c.line(self.col_x[1] - 60, self.y + size, self.col_x[3], self.y + size)
        self.y -= 6
        rate = f"{inv.tax_rate * 100:.2f}".rstrip("0").rstrip(".")
        rows = ((lay.labels["subtotal"], inv.subtotal, False),
                (f"{lay.labels['tax']} {rate}%", inv.tax, False),
                (lay.labels["total"], inv.total, True))  # fmt: skip
        for label, value, bold in rows:
            extra = 2 if bold else 0
            self.text(self.col_x[1] - 60, self.y, label, bold=bold, size=size + extra)
            self.text(
                self.col_x[3], self.y, self.money(value), bold=bold, size=size + extra, right=True
            )
            self.y -= size + 8

    def _footer(self) -> None:
        size, inv = self.lay.size, self.inv
        lines = [f"Bank transfer to IBAN {inv.iban}", "Thank you for your business."]
        if inv.due_date is not None:
            days = (inv.due_date - inv.issue_date).days
            lines.insert(0, f"Payment terms: {days} days net.")
        if inv.notes:
            lines += [
                "",
                "Terms and notes",
                *(f"{n}. {note}" for n, note in enumerate(inv.notes, 1)),
            ]
        self.y -= 20
        for line in lines:
            # Long terms flow onto a new page, as real invoices do.
            if self.y < _MARGIN + 30:
                self._new_page()
            self.text(_MARGIN, self.y, line, size=size - 1, grey=True)
            self.y -= size + 3
        self._page_number()

    def _page_number(self) -> None:
        label = f"Page {self.page}" + (f" of {self.total_pages}" if self.total_pages else "")
        self.text(self.width / 2, _MARGIN - 20, label, size=self.lay.size - 2, grey=True)

    def _new_page(self) -> None:
        self._page_number()
        self.c.showPage()
        self.page += 1
        self.y = self.height - _MARGIN
        continued = f"{self.inv.vendor.name} · {self.lay.labels['number']} {self.inv.number}"
        self.text(_MARGIN, self.y, continued + " (continued)", size=self.lay.size - 1, grey=True)
        self.y -= 3 * self.lay.size
