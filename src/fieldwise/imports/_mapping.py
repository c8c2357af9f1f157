"""Vendor field names onto the dataset's: the defaults for the bundled invoices, overridden by
``[import.<vendor>]`` in ``dataset.toml``, applied to one :class:`VendorDocument`.

Names on the left are the vendor's own: ``InvoiceTotal`` (a field), ``Items`` (an array) and
``Items.Amount`` (its column; Google's columns already carry their parent, ``line_item/amount``);
an amount's currency is ``InvoiceTotal.currencyCode`` (Azure) or ``TOTAL.Currency`` (Textract).
Targets are dataset field names, columns as ``line_items.amount``; ``""`` ignores a field on
purpose. A default whose target the dataset does not declare is left out, so the vendor field
is listed as unmapped rather than guessed.

The defaults follow ``research/vendor-outputs.md`` section 1.2: Azure ``prebuilt-invoice``,
Google's Invoice Parser entity types and Textract's standard expense fields. ``AmountDue`` is
not ``total`` (it adds a previous balance), so it is not mapped by default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from fieldwise.compare import flatten
from fieldwise.datasets import nest
from fieldwise.imports._model import Cell, Output, VendorDocument
from fieldwise.imports._textract import LINE_ITEMS

__all__ = ["DEFAULT_MAPPINGS", "FieldMapping", "apply_mapping", "field_mapping", "keep_declared"]

DEFAULT_MAPPINGS: Mapping[str, Mapping[str, str]] = {
    "azure": {
        "InvoiceId": "invoice_number",
        "InvoiceDate": "invoice_date",
        "DueDate": "due_date",
        "VendorName": "vendor_name",
        "CustomerName": "customer_name",
        "PurchaseOrder": "po_number",
        "SubTotal": "subtotal",
        "SubTotal.currencyCode": "",
        "TotalTax": "tax",
        "TotalTax.currencyCode": "",
        "InvoiceTotal": "total",
        "InvoiceTotal.currencyCode": "currency",
        "Items": "line_items",
        "Items.Description": "line_items.description",
        "Items.Quantity": "line_items.quantity",
        "Items.UnitPrice": "line_items.unit_price",
        "Items.UnitPrice.currencyCode": "",
        "Items.Amount": "line_items.amount",
        "Items.Amount.currencyCode": "",
    },
    "google": {
        "invoice_id": "invoice_number",
        "invoice_date": "invoice_date",
        "due_date": "due_date",
        "supplier_name": "vendor_name",
        "receiver_name": "customer_name",
        "purchase_order": "po_number",
        "currency": "currency",
        "net_amount": "subtotal",
        "total_tax_amount": "tax",
        "total_amount": "total",
        "line_item": "line_items",
        "line_item/description": "line_items.description",
        "line_item/quantity": "line_items.quantity",
        "line_item/unit_price": "line_items.unit_price",
        "line_item/amount": "line_items.amount",
    },
    "textract": {
        "INVOICE_RECEIPT_ID": "invoice_number",
        "INVOICE_RECEIPT_DATE": "invoice_date",
        "DUE_DATE": "due_date",
        "VENDOR_NAME": "vendor_name",
        "RECEIVER_NAME": "customer_name",
        "PO_NUMBER": "po_number",
        "SUBTOTAL": "subtotal",
        "SUBTOTAL.Currency": "",
        "TAX": "tax",
        "TAX.Currency": "",
        "TOTAL": "total",
        "TOTAL.Currency": "currency",
        LINE_ITEMS: "line_items",
        f"{LINE_ITEMS}.ITEM": "line_items.description",
        f"{LINE_ITEMS}.QUANTITY": "line_items.quantity",
        f"{LINE_ITEMS}.UNIT_PRICE": "line_items.unit_price",
        f"{LINE_ITEMS}.UNIT_PRICE.Currency": "",
        f"{LINE_ITEMS}.PRICE": "line_items.amount",
        f"{LINE_ITEMS}.PRICE.Currency": "",
    },
}


@dataclass(frozen=True)
class FieldMapping:
    """One vendor's mapping as applied to one dataset: vendor name -> dataset name (``""``:
    ignored), and the array fields among the targets."""

    vendor: str
    names: Mapping[str, str]
    arrays: frozenset[str] = field(default_factory=frozenset)

    def in_array(self, target: str) -> bool:
        """Whether ``target`` is an array field or one of its columns (no home for a single
        value)."""
        return any(target == a or target.startswith(f"{a}.") for a in self.arrays)

    def to_json(self) -> dict[str, str]:
        return dict(sorted(self.names.items()))


def field_mapping(
    vendor: str,
    fields: Mapping[str, Mapping[str, Any]],
    overrides: Mapping[str, str] | None = None,
) -> FieldMapping:
    """The defaults for ``vendor`` whose targets ``fields`` declares, then ``overrides``."""
    declared = set(fields)
    for name, spec in fields.items():
        columns = spec.get("columns")
        if isinstance(columns, Mapping):
            declared |= {f"{name}.{c}" for c in columns}
    names = {
        source: target
        for source, target in DEFAULT_MAPPINGS.get(vendor, {}).items()
        if target == "" or target in declared
    }
    names.update(overrides or {})
    arrays = frozenset(n for n, s in fields.items() if s.get("type") == "array")
    return FieldMapping(vendor, names, arrays)


def _column_key(array: str, column: str) -> str:
    return column if column.startswith(f"{array}/") else f"{array}.{column}"


def apply_mapping(document: VendorDocument, mapping: FieldMapping, key: str, where: str) -> Output:
    """The document in the dataset's names: values, confidences by dotted path, the vendor
    names with no mapping (``unmapped``) and what had to be chosen (``notes``)."""
    chosen: dict[str, tuple[str, Cell]] = {}
    unmapped: set[str] = set()
    notes = list(document.notes)
    for name, cell in document.fields.items():
        target = mapping.names.get(name)
        if target is None or mapping.in_array(target):
            unmapped.add(name)
            continue
        if not target or cell.value is None:
            continue
        held = chosen.get(target)
        if held is not None:
            winner = max((held, (name, cell)), key=lambda p: p[1].confidence or 0.0)
            notes.append(f"{held[0]} and {name} both map to {target}; kept {winner[0]}")
            chosen[target] = winner
        else:
            chosen[target] = (name, cell)
    value: dict[str, Any] = {}
    confidence: dict[str, float] = {}
    for target, (_, cell) in sorted(chosen.items()):
        nest(value, target, cell.value)
        if cell.confidence is not None:
            confidence[target] = cell.confidence
    for array, rows in document.arrays.items():
        target = mapping.names.get(array)
        if target is None or (target and target not in mapping.arrays):
            unmapped.add(array)
            continue
        if not target:
            continue
        out_rows = []
        for index, row in enumerate(rows):
            out_row: dict[str, Any] = {}
            for column, cell in row.items():
                source = _column_key(array, column)
                column_target = mapping.names.get(source)
                if column_target is None or (
                    column_target and not column_target.startswith(f"{target}.")
                ):
                    unmapped.add(source)
                    continue
                if not column_target or cell.value is None:
                    continue
                name = column_target[len(target) + 1 :]
                out_row[name] = cell.value
                if cell.confidence is not None:
                    confidence[f"{target}.{index}.{name}"] = cell.confidence
            out_rows.append(out_row)
        nest(value, target, out_rows)
    return Output(key, where, value, confidence, tuple(sorted(unmapped)), tuple(notes))


def _declared_row(
    row: Mapping[str, Any], field: str, columns: Mapping[str, Any], dropped: set[str]
) -> dict[str, Any]:
    kept = {}
    for column, cell in row.items():
        if column in columns:
            kept[column] = cell
        else:
            dropped.add(f"{field}.{column}")
    return kept


def keep_declared(output: Output, fields: Mapping[str, Mapping[str, Any]]) -> Output:
    """``output`` with only the fields (and array columns) ``fields`` declares; the others are
    added to ``unmapped`` (a generic source's extra keys, an LLM's ``notes``, would otherwise
    be scored as spurious values of fields the dataset never asked for). Nothing is dropped
    when nothing is declared."""
    if not fields:
        return output
    value: dict[str, Any] = {}
    dropped: set[str] = set()
    for path, item in flatten(output.value).items():
        spec = fields.get(path)
        if spec is None:
            dropped.add(path)
            continue
        columns = spec.get("columns")
        if isinstance(item, list) and isinstance(columns, Mapping):
            item = [
                _declared_row(row, path, columns, dropped) if isinstance(row, Mapping) else row
                for row in item
            ]
        nest(value, path, item)
    if not dropped:
        return output
    prefixes = tuple(f"{d}." for d in dropped)
    confidence = {
        k: c
        for k, c in output.confidence.items()
        if k not in dropped and not k.startswith(prefixes) and _column_of(k) not in dropped
    }
    unmapped = tuple(sorted({*output.unmapped, *dropped}))
    return replace(output, value=value, confidence=confidence, unmapped=unmapped)


def _column_of(path: str) -> str:
    """``line_items.0.sku`` -> ``line_items.sku`` (how a dropped column is named)."""
    parts = path.split(".")
    return ".".join(p for p in parts if not p.isdigit())
