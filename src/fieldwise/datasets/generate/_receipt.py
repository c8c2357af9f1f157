"""Render a till receipt as a narrow text PDF with reportlab."""

from __future__ import annotations

import io
from decimal import Decimal

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from fieldwise.datasets.generate._content import Receipt
from fieldwise.datasets.generate._layouts import (
    ReceiptLayout,
    format_date,
    format_money,
    format_quantity,
)

__all__ = ["render_receipt"]

_WIDTH = 80 * mm
_SIDE = 5 * mm


def render_receipt(receipt: Receipt, layout: ReceiptLayout) -> bytes:
    """The receipt as PDF bytes on a page as long as its content (invariant mode)."""
    lines = _lines(receipt, layout)
    leading = layout.size + 4
    height = 2 * 10 * mm + leading * len(lines)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(_WIDTH, height), invariant=1, pageCompression=1)
    canvas.setCreator("fieldwise sample generator")
    y = height - 10 * mm - layout.size
    for left, right, style in lines:
        font = layout.bold if style in ("bold", "title") else layout.font
        size = layout.size + (4 if style == "title" else 0)
        canvas.setFont(font, size)
        if style in ("title", "center"):
            canvas.drawCentredString(_WIDTH / 2, y, left)
        else:
            canvas.drawString(_SIDE, y, left)
            if right:
                canvas.drawRightString(_WIDTH - _SIDE, y, right)
        y -= leading
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _lines(receipt: Receipt, layout: ReceiptLayout) -> list[tuple[str, str, str]]:
    def money(value: Decimal) -> str:
        return format_money(value, receipt.currency, layout.number_style, layout.money_style)

    rule = ("-" * 34, "", "center")
    lines = [
        (receipt.merchant, "", "title"),
        (receipt.address, "", "center"),
        rule,
        (f"{format_date(receipt.date, layout.date_format)}  {receipt.time}", "", "plain"),
        rule,
    ]
    for item in receipt.items:
        quantity = format_quantity(item.quantity, layout.number_style)
        if layout.show_quantity_column:
            lines.append((f"{quantity} x {item.description}", money(item.amount), "plain"))
        else:
            lines.append((item.description, money(item.amount), "plain"))
            if item.quantity != 1:
                lines.append((f"  {quantity} @ {money(item.unit_price)}", "", "plain"))
    tax = (receipt.total - receipt.total / (1 + receipt.tax_rate)).quantize(Decimal("0.01"))
    rate = f"{receipt.tax_rate * 100:.2f}".rstrip("0").rstrip(".")
    lines += [
        rule,
        (layout.total_label, money(receipt.total), "bold"),
        (f"incl. tax {rate}%", money(tax), "plain"),
        rule,
        ("Thank you for your visit!", "", "center"),
    ]
    return lines
