"""The text files of a generated dataset: dataset.toml and the two processor configs."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["dataset_toml", "processor_configs"]

_SPLITS = """
# Which documents a trained version learns from (train) and is evaluated on (test): by a hash
# of each document's bytes, so a document keeps its split wherever it is copied.
[splits]
train = 0.7
test = 0.3
"""

_INVOICE_TOML = """\
[dataset]
name = "{name}"
description = "Synthetic invoices: {layouts} layouts, {scanned} scanned, seed {seed}."
date_order = "YMD"
locale = "en"

[fields.invoice_number]
type = "string"
critical = true

[fields.invoice_date]
type = "date"

[fields.due_date]
type = "date"

[fields.vendor_name]
type = "text"
threshold = 0.9

[fields.customer_name]
type = "text"
threshold = 0.9

[fields.currency]
type = "enum"
values = ["EUR", "USD", "GBP"]

[fields.subtotal]
type = "currency"

[fields.tax]
type = "currency"

[fields.total]
type = "currency"
critical = true
weight = 2.0

[fields.po_number]
type = "string"

[fields.line_items]
type = "array"

[fields.line_items.columns.description]
type = "text"
threshold = 0.85

[fields.line_items.columns.quantity]
type = "number"

[fields.line_items.columns.unit_price]
type = "currency"

[fields.line_items.columns.amount]
type = "currency"

[processor]
name = "invoice-extractor"
type = "extraction"
description = "Rules-based extraction of invoice header fields, totals and line items."
baseline = "processor/v1.json"
candidate = "processor/v2.json"
{splits}"""

_RECEIPT_TOML = """\
[dataset]
name = "{name}"
description = "Synthetic till receipts: {layouts} layouts, {scanned} scanned, seed {seed}."
date_order = "YMD"
locale = "en"

[fields.merchant_name]
type = "text"
threshold = 0.9

[fields.date]
type = "date"

[fields.currency]
type = "enum"
values = ["EUR", "USD", "GBP"]

[fields.total]
type = "currency"
critical = true

[fields.line_items]
type = "array"

[fields.line_items.columns.description]
type = "text"
threshold = 0.85

[fields.line_items.columns.quantity]
type = "number"

[fields.line_items.columns.amount]
type = "currency"

[processor]
name = "receipt-extractor"
type = "extraction"
description = "Rules-based extraction of merchant, date and total from till receipts."
baseline = "processor/v1.json"
candidate = "processor/v2.json"
{splits}"""


def dataset_toml(
    kind: str,
    name: str,
    seed: int,
    layouts: int,
    scanned: int,
    present: set[str] | None = None,
) -> str:
    """The dataset.toml text for a generated dataset of ``kind``.

    With ``present`` (the field names the ground truth has, and ``line_items[].amount`` for a
    column), a field or column no document has is left out: a declared field without values
    is a validation problem (three invoices may well have no PO number).
    """
    template = _INVOICE_TOML if kind == "invoices" else _RECEIPT_TOML
    text = template.format(name=name, seed=seed, layouts=layouts, scanned=scanned, splits=_SPLITS)
    if present is None:
        return text
    blocks = text.split("\n\n")
    return "\n\n".join(block for block in blocks if _declared(block, present))


def _declared(block: str, present: set[str]) -> bool:
    """Whether a TOML block is kept: anything but a ``[fields.…]`` table no value has."""
    if not block.startswith("[fields."):
        return True
    path = block.split("]", 1)[0].removeprefix("[fields.").split(".")
    name = path[0] if len(path) < 3 else f"{path[0]}[].{path[2]}"
    return name in present


def processor_configs(kind: str) -> tuple[str, str]:
    """(baseline, candidate) processor configs as JSON text.

    The candidate adds the label synonyms of the layouts the baseline misses (fixing some
    fields) but narrows the due-date labels and pins the PO number to one pattern, so it is
    worse on those: the comparison has a real decision to make.
    """
    baseline, candidate = _invoice_configs() if kind == "invoices" else _receipt_configs()
    return _dump(baseline), _dump(candidate)


def _dump(config: dict[str, Any]) -> str:
    return json.dumps(config, indent=2, ensure_ascii=False) + "\n"


def _invoice_configs() -> tuple[dict[str, Any], dict[str, Any]]:
    def field(name: str, kind: str, labels: list[str], **extra: Any) -> dict[str, Any]:
        return {"name": name, "type": kind, "labels": labels, **extra}

    currency = {"values": ["EUR", "USD", "GBP"]}
    baseline = [
        field("invoice_number", "string", ["Invoice No", "Invoice Number", "Invoice #"],
              pattern="[A-Z0-9-]{4,}", required=True),
        field("invoice_date", "date", ["Invoice Date", "Date"]),
        field("due_date", "date", ["Due Date", "Payment due", "Due", "Due by", "Pay by"]),
        field("vendor_name", "string", ["Vendor", "Supplier", "From"]),
        field("customer_name", "string", ["Bill To", "Customer"], position="below"),
        field("currency", "enum", ["Currency"], **currency),
        field("subtotal", "currency", ["Subtotal", "Net amount", "Net total"]),
        field("tax", "currency", ["VAT", "Tax"]),
        field("total", "currency", ["Total", "Amount Due", "Grand Total", "Balance Due"],
              required=True),
        field("po_number", "string", ["PO Number", "Purchase Order", "P.O. #", "Order Number"]),
        {"name": "line_items", "type": "array",
         "columns": {"description": ["Description", "Item"], "quantity": ["Qty", "Quantity"],
                     "unit_price": ["Unit price", "Price"], "amount": ["Amount", "Total"]},
         "column_types": {"quantity": "number", "unit_price": "currency", "amount": "currency"}},
    ]  # fmt: skip
    candidate = [
        field("invoice_number", "string",
              ["Invoice No", "Invoice Number", "Invoice #", "Bill #", "Invoice Ref", "Document No"],
              pattern="[A-Z0-9-]{4,}", required=True),
        field("invoice_date", "date",
              ["Invoice Date", "Date", "Date issued", "Bill Date", "Tax point", "Document date"]),
        field("due_date", "date", ["Due Date"]),
        field("vendor_name", "string", ["Vendor", "Supplier", "From"]),
        field("customer_name", "string",
              ["Bill To", "Billed To", "Customer", "Client", "Invoice to", "Sold to"],
              position="below"),
        field("currency", "enum", ["Currency"], **currency),
        field("subtotal", "currency",
              ["Subtotal", "Sub-total", "Net amount", "Net total", "Total net", "Total excl. tax"]),
        field("tax", "currency", ["VAT", "Tax", "Sales tax", "Tax amount", "Tax total"]),
        field("total", "currency",
              ["Total", "Amount Due", "Grand Total", "Balance Due", "Gross amount",
               "Total payable", "Invoice total"], required=True),
        field("po_number", "string",
              ["PO Number", "Purchase Order", "P.O. #", "Order Number", "Your order ref.",
               "Your order", "Customer PO"], pattern="PO-[0-9]{5}"),
        {"name": "line_items", "type": "array",
         "columns": {"description": ["Description", "Item", "Service", "Article", "Details",
                                     "Product"],
                     "quantity": ["Qty", "Quantity", "Hours", "Units"],
                     "unit_price": ["Unit price", "Price", "Rate", "Unit"],
                     "amount": ["Amount", "Line total", "Net amount", "Net", "Total"]},
         "column_types": {"quantity": "number", "unit_price": "currency", "amount": "currency"}},
    ]  # fmt: skip
    common = {"engine": "rules", "label_threshold": 85, "date_order": "DMY"}
    return {**common, "fields": baseline}, {**common, "fields": candidate}


def _receipt_configs() -> tuple[dict[str, Any], dict[str, Any]]:
    currency = {"name": "currency", "type": "enum", "values": ["EUR", "USD", "GBP"], "labels": []}
    baseline = [
        {"name": "date", "type": "date", "labels": ["Date"]},
        {"name": "total", "type": "currency", "labels": ["Total"], "required": True},
        currency,
    ]
    candidate = [
        {"name": "date", "type": "date", "labels": ["Date"]},
        {"name": "total", "type": "currency", "labels": ["Total", "TOTAL", "Amount paid"],
         "required": True},
        currency,
    ]  # fmt: skip
    common = {"engine": "rules", "label_threshold": 85, "date_order": "DMY"}
    return {**common, "fields": baseline}, {**common, "fields": candidate}
