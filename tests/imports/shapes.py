"""Predictions rendered in each format ``runsets import`` reads, from plain values.

The vendor shapes follow each vendor's published schema and samples (see fixtures/README.md):

* Azure: ``Azure/azure-rest-api-specs``,
  ``specification/ai/DocumentIntelligence/examples/2025-09-01/GetAnalyzeDocumentResult.json``
  (``status`` + ``analyzeResult`` with ``documents[].fields``; amounts as ``type: "number"``
  in that example, ``type: "currency"`` with ``valueCurrency`` since api-version 2023-07-31;
  ``Items`` as ``valueArray`` of ``valueObject``).
* Google: https://cloud.google.com/document-ai/docs/reference/rest/v1/Document (camelCase
  ``entities[]`` with ``type``, ``mentionText``, ``normalizedValue``, ``confidence``;
  ``line_item`` entities with ``properties``), and the Python client's proto-plus dumps in
  ``GoogleCloudPlatform/document-ai-samples`` (snake_case, ``type_``, money as text only).
* Textract: https://docs.aws.amazon.com/textract/latest/dg/expensedocuments.html and
  ``aws-samples/amazon-textract-textractor``'s
  ``tests/fixtures/saved_api_responses/test_analyze_expense_from_path.json``
  (``ExpenseDocuments[].SummaryFields`` / ``LineItemGroups``, confidences in percent).

A prediction here is ``{"value": {...}, "confidence": {dotted path: c}}`` per document file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any

import pandas as pd

Prediction = Mapping[str, Any]

AZURE_NAMES = {
    "invoice_number": "InvoiceId",
    "invoice_date": "InvoiceDate",
    "due_date": "DueDate",
    "vendor_name": "VendorName",
    "customer_name": "CustomerName",
    "po_number": "PurchaseOrder",
    "subtotal": "SubTotal",
    "tax": "TotalTax",
    "total": "InvoiceTotal",
}
AZURE_COLUMNS = {
    "description": "Description",
    "quantity": "Quantity",
    "unit_price": "UnitPrice",
    "amount": "Amount",
}
GOOGLE_NAMES = {
    "invoice_number": "invoice_id",
    "invoice_date": "invoice_date",
    "due_date": "due_date",
    "vendor_name": "supplier_name",
    "customer_name": "receiver_name",
    "po_number": "purchase_order",
    "currency": "currency",
    "subtotal": "net_amount",
    "tax": "total_tax_amount",
    "total": "total_amount",
}
TEXTRACT_NAMES = {
    "invoice_number": "INVOICE_RECEIPT_ID",
    "invoice_date": "INVOICE_RECEIPT_DATE",
    "due_date": "DUE_DATE",
    "vendor_name": "VENDOR_NAME",
    "customer_name": "RECEIVER_NAME",
    "po_number": "PO_NUMBER",
    "subtotal": "SUBTOTAL",
    "tax": "TAX",
    "total": "TOTAL",
}
TEXTRACT_COLUMNS = {
    "description": "ITEM",
    "quantity": "QUANTITY",
    "unit_price": "UNIT_PRICE",
    "amount": "PRICE",
}
MONEY = ("subtotal", "tax", "total", "unit_price", "amount")
DATES = ("invoice_date", "due_date")
_BOX = {"pageNumber": 1, "polygon": [1.0, 1.0, 2.0, 1.0, 2.0, 1.2, 1.0, 1.2]}


def stem(file: str) -> str:
    return PurePosixPath(file).stem


def _write(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


# ---- generic --------------------------------------------------------------------------


def write_jsonl(predictions: Mapping[str, Prediction], path: Path) -> Path:
    with path.open("w", encoding="utf-8") as handle:
        for file, p in predictions.items():
            row = {"file": file, "output": p["value"], "confidence": p["confidence"]}
            handle.write(json.dumps(row) + "\n")
    return path


def write_folder(predictions: Mapping[str, Prediction], folder: Path) -> Path:
    folder.mkdir()
    for file, p in predictions.items():
        _write(folder / f"{stem(file)}.json", {"output": p["value"], "confidence": p["confidence"]})
    return folder


def flat_row(file: str, value: Mapping[str, Any]) -> dict[str, Any]:
    row: dict[str, Any] = {"file": file}
    for name, item in value.items():
        if isinstance(item, list):
            for i, line in enumerate(item):
                row.update({f"{name}.{i}.{c}": v for c, v in line.items()})
        else:
            row[name] = item
    return row


def write_csv(predictions: Mapping[str, Prediction], path: Path) -> Path:
    rows = [flat_row(file, p["value"]) for file, p in predictions.items()]
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def write_parquet(predictions: Mapping[str, Prediction], path: Path) -> Path:
    """Scalars as dotted columns, line items as one list-of-structs column (both nest)."""
    rows = []
    for file, p in predictions.items():
        row = {
            k: v for k, v in flat_row(file, p["value"]).items() if not k.startswith("line_items.")
        }
        lines = p["value"].get("line_items")
        row["line_items"] = (
            [
                {c: (float(v) if c != "description" else v) for c, v in line.items()}
                for line in lines
            ]
            if lines is not None
            else None
        )
        rows.append(row)
    pd.DataFrame(rows).to_parquet(path, index=False)
    return path


# ---- Azure Document Intelligence ------------------------------------------------------


def _azure_field(
    name: str, value: Any, confidence: float | None, currency: str | None
) -> dict[str, Any]:
    field: dict[str, Any] = {"boundingRegions": [_BOX], "spans": [{"offset": 0, "length": 4}]}
    if confidence is not None:
        field["confidence"] = confidence
    if name in MONEY and currency is not None:
        field.update(
            type="currency",
            valueCurrency={"currencySymbol": "", "amount": value, "currencyCode": currency},
            content=f"{value:.2f}",
        )
    elif name in MONEY or name == "quantity":
        field.update(type="number", valueNumber=value, content=str(value))
    elif name in DATES:
        field.update(type="date", valueDate=value, content=value)
    else:
        field.update(type="string", valueString=value, content=value)
    return field


def azure_response(p: Prediction) -> dict[str, Any]:
    value, conf = p["value"], p["confidence"]
    currency = value.get("currency")
    fields: dict[str, Any] = {
        "Locale": {"type": "string", "valueString": "en-US", "confidence": 1},
    }
    for name, azure in AZURE_NAMES.items():
        if name in value:
            fields[azure] = _azure_field(name, value[name], conf.get(name), currency)
    if "currency" in value and "total" not in value:  # the code rides on the total only
        raise ValueError("an Azure response carries the currency on InvoiceTotal")
    if "total" in conf and "currency" in conf:
        assert conf["total"] == conf["currency"], "Azure gives the code the amount's confidence"
    if "line_items" in value:
        rows = []
        for i, line in enumerate(value["line_items"]):
            columns = {
                AZURE_COLUMNS[c]: _azure_field(c, v, conf.get(f"line_items.{i}.{c}"), None)
                for c, v in line.items()
            }
            rows.append(
                {"type": "object", "valueObject": columns, "content": "", "confidence": 0.9}
            )
        fields["Items"] = {"type": "array", "valueArray": rows}
    return {
        "status": "succeeded",
        "createdDateTime": "2026-11-01T10:00:00Z",
        "lastUpdatedDateTime": "2026-11-01T10:00:03Z",
        "analyzeResult": {
            "apiVersion": "2024-11-30",
            "modelId": "prebuilt-invoice",
            "stringIndexType": "textElements",
            "content": "INVOICE",
            "pages": [],
            "documents": [
                {
                    "docType": "invoice",
                    "boundingRegions": [_BOX],
                    "fields": fields,
                    "confidence": 1,
                    "spans": [{"offset": 0, "length": 7}],
                }
            ],
        },
    }


def write_azure(predictions: Mapping[str, Prediction], folder: Path) -> Path:
    folder.mkdir()
    for file, p in predictions.items():
        _write(folder / f"{stem(file)}.json", azure_response(p))
    return folder


# ---- Google Document AI ---------------------------------------------------------------


def _google_normalized(name: str, value: Any) -> dict[str, Any] | None:
    if name in MONEY:
        units = int(value)
        return {"moneyValue": {"units": str(units), "nanos": round((value - units) * 1e9)}}
    if name in DATES:
        y, m, d = (int(x) for x in value.split("-"))
        return {"text": value, "dateValue": {"year": y, "month": m, "day": d}}
    if name == "quantity":
        return {"text": str(value), "floatValue": value}
    return None


def _google_entity(kind: str, name: str, value: Any, confidence: float | None) -> dict[str, Any]:
    entity: dict[str, Any] = {
        "type": kind,
        "mentionText": str(value),
        "textAnchor": {"textSegments": [{"startIndex": "0", "endIndex": "4"}]},
        "pageAnchor": {
            "pageRefs": [{"boundingPoly": {"normalizedVertices": [{"x": 0.1, "y": 0.1}]}}]
        },
        "id": "0",
    }
    if confidence is not None:
        entity["confidence"] = confidence
    normalized = _google_normalized(name, value)
    if normalized is not None:
        entity["normalizedValue"] = normalized
    return entity


def google_document(p: Prediction) -> dict[str, Any]:
    value, conf = p["value"], p["confidence"]
    entities = [
        _google_entity(google, name, value[name], conf.get(name))
        for name, google in GOOGLE_NAMES.items()
        if name in value
    ]
    for i, line in enumerate(value.get("line_items") or []):
        properties = [
            _google_entity(f"line_item/{c}", c, v, conf.get(f"line_items.{i}.{c}"))
            for c, v in line.items()
        ]
        entities.append(
            {"type": "line_item", "mentionText": "", "confidence": 1, "properties": properties}
        )
    return {"mimeType": "application/pdf", "text": "INVOICE", "pages": [], "entities": entities}


def write_google(predictions: Mapping[str, Prediction], folder: Path) -> Path:
    folder.mkdir()
    for file, p in predictions.items():
        _write(folder / f"{stem(file)}.json", google_document(p))
    return folder


# ---- AWS Textract AnalyzeExpense ------------------------------------------------------


def textract_text(name: str, value: Any) -> str:
    """What Textract's ValueDetection.Text holds: the printed text (amounts with a thousands
    separator here); Textract does not normalise values."""
    if name in MONEY:
        return f"{value:,.2f}"
    return str(value)


def _textract_field(
    kind: str, text: str, confidence: float | None, currency: str | None = None
) -> dict[str, Any]:
    geometry = {
        "BoundingBox": {"Width": 0.1, "Height": 0.02, "Left": 0.5, "Top": 0.5},
        "Polygon": [
            {"X": 0.5, "Y": 0.5},
            {"X": 0.6, "Y": 0.5},
            {"X": 0.6, "Y": 0.52},
            {"X": 0.5, "Y": 0.52},
        ],
    }
    field: dict[str, Any] = {
        "Type": {"Text": kind, "Confidence": 99.0},
        "LabelDetection": {
            "Text": kind.replace("_", " ").title(),
            "Geometry": geometry,
            "Confidence": 98.0,
        },
        "ValueDetection": {"Text": text, "Geometry": geometry},
        "PageNumber": 1,
    }
    if confidence is not None:
        field["ValueDetection"]["Confidence"] = confidence * 100
    if currency is not None:
        field["Currency"] = {"Code": currency, "Confidence": (confidence or 0.5) * 100}
    return field


def textract_response(p: Prediction) -> dict[str, Any]:
    value, conf = p["value"], p["confidence"]
    summary = [
        _textract_field(
            kind,
            textract_text(name, value[name]),
            conf.get(name),
            value.get("currency") if name == "total" else None,
        )
        for name, kind in TEXTRACT_NAMES.items()
        if name in value
    ]
    items = []
    for i, line in enumerate(value.get("line_items") or []):
        fields = [
            _textract_field(
                TEXTRACT_COLUMNS[c], textract_text(c, v), conf.get(f"line_items.{i}.{c}")
            )
            for c, v in line.items()
        ]
        fields.append(_textract_field("EXPENSE_ROW", " ".join(str(v) for v in line.values()), 0.9))
        items.append({"LineItemExpenseFields": fields})
    document: dict[str, Any] = {"ExpenseIndex": 1, "SummaryFields": summary, "LineItemGroups": []}
    if items:
        document["LineItemGroups"] = [{"LineItemGroupIndex": 1, "LineItems": items}]
    return {
        "DocumentMetadata": {"Pages": 1},
        "ExpenseDocuments": [document],
        "ResponseMetadata": {"HTTPStatusCode": 200},
    }


def write_textract(predictions: Mapping[str, Prediction], folder: Path) -> Path:
    folder.mkdir()
    for file, p in predictions.items():
        _write(folder / f"{stem(file)}.json", textract_response(p))
    return folder
