"""The distinct document layouts and how each prints dates, amounts and labels."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

__all__ = [
    "INVOICE_LAYOUTS",
    "RECEIPT_LAYOUTS",
    "InvoiceLayout",
    "ReceiptLayout",
    "format_date",
    "format_money",
    "format_number",
]

_SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£"}
_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


@dataclass(frozen=True)
class InvoiceLayout:
    """One invoice template: fonts, where labels sit, label words and number/date formats.

    ``label_position`` is "left" (``Invoice No.: 123``) or "above" (label line, value below).
    ``date_format``: iso | mdy_slash | dmy_dot | dmy_slash | long | us_long | dmon.
    ``number_style``: en "1,234.50" | de "1.234,50" | fr "1 234,50" | plain "1234.50".
    ``money_style``: code_prefix "EUR 1.00" | symbol_prefix "€1.00" | code_suffix "1.00 EUR" |
    symbol_suffix "1.00 €". ``labels`` keys: number, date, due, po, bill_to, subtotal, tax,
    total, currency (empty = not printed). ``columns``: description, quantity, unit, amount.
    """

    name: str
    font: str
    bold: str
    size: float
    title: str
    label_position: str
    date_format: str
    number_style: str
    money_style: str
    labels: dict[str, str]
    columns: tuple[str, str, str, str]
    row_height: float
    vendor_right: bool
    page: str
    rule_color: tuple[float, float, float]


@dataclass(frozen=True)
class ReceiptLayout:
    """One till-receipt template (narrow page, monospace or proportional)."""

    name: str
    font: str
    bold: str
    size: float
    date_format: str
    number_style: str
    money_style: str
    total_label: str
    show_quantity_column: bool


INVOICE_LAYOUTS: tuple[InvoiceLayout, ...] = (
    InvoiceLayout(
        name="classic",
        font="Helvetica", bold="Helvetica-Bold", size=9.5, title="INVOICE",
        label_position="left", date_format="iso", number_style="en", money_style="code_prefix",
        labels={"number": "Invoice No.", "date": "Invoice Date", "due": "Due Date",
                "po": "PO Number", "bill_to": "Bill To", "subtotal": "Subtotal",
                "tax": "VAT", "total": "Total", "currency": "Currency"},
        columns=("Description", "Qty", "Unit price", "Amount"),
        row_height=16, vendor_right=False, page="A4", rule_color=(0.2, 0.3, 0.5),
    ),
    InvoiceLayout(
        name="modern",
        font="Helvetica", bold="Helvetica-Bold", size=10, title="Invoice",
        label_position="above", date_format="long", number_style="en", money_style="symbol_prefix",
        labels={"number": "INVOICE #", "date": "DATE ISSUED", "due": "PAYMENT DUE",
                "po": "PURCHASE ORDER", "bill_to": "BILLED TO", "subtotal": "Subtotal",
                "tax": "Tax", "total": "Amount Due", "currency": ""},
        columns=("Item", "Quantity", "Rate", "Line total"),
        row_height=27, vendor_right=True, page="A4", rule_color=(0.1, 0.55, 0.5),
    ),
    InvoiceLayout(
        name="continental",
        font="Times-Roman", bold="Times-Bold", size=10.5, title="INVOICE",
        label_position="left", date_format="dmy_dot", number_style="de", money_style="code_suffix",
        labels={"number": "Invoice number", "date": "Date", "due": "Payment due",
                "po": "Your order ref.", "bill_to": "Customer", "subtotal": "Net amount",
                "tax": "VAT", "total": "Gross amount", "currency": "Currency"},
        columns=("Article", "Quantity", "Price", "Net amount"),
        row_height=17, vendor_right=False, page="A4", rule_color=(0.3, 0.3, 0.3),
    ),
    InvoiceLayout(
        name="us-services",
        font="Courier", bold="Courier-Bold", size=9, title="BILL FOR SERVICES",
        label_position="left", date_format="mdy_slash", number_style="en",
        money_style="symbol_prefix",
        labels={"number": "Bill #", "date": "Bill Date", "due": "Due",
                "po": "P.O. #", "bill_to": "Client", "subtotal": "Sub-total",
                "tax": "Sales tax", "total": "Balance Due", "currency": ""},
        columns=("Service", "Hours", "Rate", "Amount"),
        row_height=15, vendor_right=False, page="LETTER", rule_color=(0, 0, 0),
    ),
    InvoiceLayout(
        name="uk-ledger",
        font="Times-Roman", bold="Times-Bold", size=10, title="TAX INVOICE",
        label_position="above", date_format="dmy_slash", number_style="en",
        money_style="symbol_prefix",
        labels={"number": "Invoice Ref.", "date": "Tax point", "due": "Due by",
                "po": "Your order", "bill_to": "Invoice to", "subtotal": "Total net",
                "tax": "VAT @", "total": "Total payable", "currency": ""},
        columns=("Details", "Units", "Price", "Net"),
        row_height=29, vendor_right=True, page="A4", rule_color=(0.45, 0.1, 0.15),
    ),
    InvoiceLayout(
        name="compact",
        font="Helvetica", bold="Helvetica-Bold", size=8.5, title="Invoice",
        label_position="left", date_format="dmon", number_style="fr", money_style="symbol_suffix",
        labels={"number": "Document No", "date": "Document date", "due": "Due date",
                "po": "Customer PO", "bill_to": "Sold to", "subtotal": "Total excl. tax",
                "tax": "Tax amount", "total": "Invoice total", "currency": "Currency"},
        columns=("Product", "Qty", "Unit", "Amount"),
        row_height=13, vendor_right=True, page="A4", rule_color=(0.5, 0.35, 0.05),
    ),
    InvoiceLayout(
        name="statement",
        font="Helvetica", bold="Helvetica-Bold", size=10, title="INVOICE",
        label_position="above", date_format="us_long", number_style="plain",
        money_style="code_prefix",
        labels={"number": "Invoice Number", "date": "Invoice Date", "due": "Pay by",
                "po": "Order Number", "bill_to": "Customer", "subtotal": "Net total",
                "tax": "Tax total", "total": "Grand Total", "currency": "Currency"},
        columns=("Description", "Qty", "Unit Price", "Total"),
        row_height=20, vendor_right=False, page="LETTER", rule_color=(0.25, 0.25, 0.6),
    ),
)  # fmt: skip

RECEIPT_LAYOUTS: tuple[ReceiptLayout, ...] = (
    ReceiptLayout("till", "Courier", "Courier-Bold", 8.5, "dmy_dot", "de", "code_suffix",
                  "TOTAL", True),
    ReceiptLayout("cafe", "Helvetica", "Helvetica-Bold", 9, "mdy_slash", "en", "symbol_prefix",
                  "Total", False),
    ReceiptLayout("shop", "Times-Roman", "Times-Bold", 9.5, "iso", "en", "code_prefix",
                  "Amount paid", True),
)  # fmt: skip


def format_date(value: dt.date, style: str) -> str:
    """Print ``value`` in one of the layout date styles."""
    if style == "iso":
        return value.isoformat()
    if style == "mdy_slash":
        return f"{value.month:02d}/{value.day:02d}/{value.year}"
    if style == "dmy_dot":
        return f"{value.day:02d}.{value.month:02d}.{value.year}"
    if style == "dmy_slash":
        return f"{value.day:02d}/{value.month:02d}/{value.year}"
    if style == "long":
        return f"{value.day} {_MONTHS[value.month - 1]} {value.year}"
    if style == "us_long":
        return f"{_MONTHS[value.month - 1]} {value.day}, {value.year}"
    if style == "dmon":
        return f"{value.day:02d}-{_MONTHS[value.month - 1][:3]}-{value.year}"
    raise ValueError(f"unknown date style {style!r}")


def format_number(value: Decimal, style: str, places: int = 2) -> str:
    """Print ``value`` with the thousands and decimal separators of ``style``."""
    text = f"{value:,.{places}f}"
    if style == "en":
        return text
    if style == "plain":
        return text.replace(",", "")
    if style == "de":
        return text.replace(",", "_").replace(".", ",").replace("_", ".")
    if style == "fr":
        return text.replace(",", " ").replace(".", ",")
    raise ValueError(f"unknown number style {style!r}")


def format_quantity(value: Decimal, style: str) -> str:
    """Quantities print without decimals when whole (``3``, ``7.5`` / ``7,5``)."""
    if value == value.to_integral_value():
        return str(int(value))
    return format_number(value, style, places=1)


def format_money(value: Decimal, currency: str, number_style: str, money_style: str) -> str:
    """Print an amount with its currency as code or symbol, before or after the number."""
    number = format_number(value, number_style)
    if money_style == "code_prefix":
        return f"{currency} {number}"
    if money_style == "code_suffix":
        return f"{number} {currency}"
    symbol = _SYMBOLS[currency]
    if money_style == "symbol_prefix":
        return f"{symbol}{number}"
    return f"{number} {symbol}"
