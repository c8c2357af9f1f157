"""Azure AI Document Intelligence ``analyzeResult`` JSON (REST v3.x and v4.0, and the Python
SDK's ``as_dict()``, which keeps the same camelCase keys).

Shape (``Azure/azure-rest-api-specs``, ``specification/ai/DocumentIntelligence/examples/
2025-09-01/GetAnalyzeDocumentResult.json``): ``{"status", "analyzeResult": {"apiVersion",
"modelId", "documents": [{"docType", "confidence", "fields": {name: field}}]}}``, where a
field has ``type``, one ``value<Type>`` key (``valueString``, ``valueDate`` in ISO form,
``valueNumber``, ``valueCurrency {amount, currencyCode, currencySymbol}``, ``valueArray`` of
``valueObject`` rows for line items, ...), the raw ``content`` and a ``confidence`` in [0, 1].
The bare ``analyzeResult`` object is accepted too, and so is the JavaScript SDK's
(``@azure/ai-form-recognizer``) serialisation, where a field has ``kind`` and ``value``
(``DocumentCurrencyField``: ``{kind: "currency", value: {amount, currencyCode}}``; arrays as
``values``, rows as ``properties``; dates as ``Date`` JSON, ``2026-03-04T00:00:00.000Z``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fieldwise.imports._files import unwrap
from fieldwise.imports._model import Cell, PredictionsError, VendorDocument

__all__ = ["looks_like_azure", "parse_azure"]

#: The scalar value keys, most specific first; a field with none of them (Azure found the
#: text but could not normalise it, e.g. a ``Tax`` of "10%") falls back to ``content``.
_VALUE_KEYS = (
    "valueString",
    "valueDate",
    "valueTime",
    "valueNumber",
    "valueInteger",
    "valueBoolean",
    "valuePhoneNumber",
    "valueCountryRegion",
    "valueSelectionMark",
    "valueSignature",
)


def _result(data: Any) -> Mapping[str, Any] | None:
    return unwrap(data, "analyzeResult", "documents")


def looks_like_azure(data: Any) -> bool:
    """An ``analyzeResult`` (or the operation wrapping one) with ``documents[].fields``."""
    result = _result(data)
    return result is not None and all(
        isinstance(d, Mapping) and isinstance(d.get("fields"), Mapping) for d in result["documents"]
    )


def _confidence(field: Mapping[str, Any]) -> float | None:
    value = field.get("confidence")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _js_value(field: Mapping[str, Any]) -> Any:
    """The JavaScript SDK's ``value``: a ``Date`` serialises with a time, which a date field
    does not have."""
    value = field.get("value", field.get("content"))
    if field.get("kind") == "date" and isinstance(value, str) and "T" in value:
        return value.split("T", 1)[0]
    return value


def _scalar(name: str, field: Mapping[str, Any], into: dict[str, Cell]) -> None:
    confidence = _confidence(field)
    js = "kind" in field and "type" not in field
    currency = (
        field.get("value") if js and field["kind"] == "currency" else field.get("valueCurrency")
    )
    if isinstance(currency, Mapping):
        into[name] = Cell(currency.get("amount"), confidence)
        if currency.get("currencyCode"):
            into[f"{name}.currencyCode"] = Cell(currency["currencyCode"], confidence)
        return
    if js:
        into[name] = Cell(_js_value(field), confidence)
        return
    for key in _VALUE_KEYS:
        if key in field:
            into[name] = Cell(field[key], confidence)
            return
    into[name] = Cell(field.get("content"), confidence)


def _row(item: Mapping[str, Any]) -> dict[str, Cell]:
    row: dict[str, Cell] = {}
    columns = item.get("valueObject", item.get("properties"))
    if isinstance(columns, Mapping):
        for column, value in columns.items():
            if isinstance(value, Mapping):
                _scalar(str(column), value, row)
    return row


def parse_azure(data: Any, where: str) -> VendorDocument:
    """The fields of the response's document (the most confident one when it holds several,
    noted)."""
    result = _result(data)
    if result is None or not result["documents"]:
        raise PredictionsError(f"{where}: an Azure analyzeResult without documents[]")
    documents = [d for d in result["documents"] if isinstance(d, Mapping)]
    document = max(documents, key=lambda d: _confidence(d) or 0.0)
    notes: tuple[str, ...] = ()
    if len(documents) > 1:
        notes = (
            f"{len(documents)} documents in one response; kept the most confident "
            f"({document.get('docType')}, {_confidence(document)})",
        )
    fields: dict[str, Cell] = {}
    arrays: dict[str, tuple[dict[str, Cell], ...]] = {}
    for name, field in document["fields"].items():
        if not isinstance(field, Mapping):
            raise PredictionsError(f"{where}: field {name!r} is not an object")
        if "valueArray" in field or "array" in (field.get("type"), field.get("kind")):
            rows = field.get("valueArray") or field.get("values") or []
            arrays[str(name)] = tuple(_row(r) for r in rows if isinstance(r, Mapping))
        else:
            _scalar(str(name), field, fields)
    return VendorDocument(fields, arrays, notes)
