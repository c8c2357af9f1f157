"""Google Document AI ``Document`` JSON (v1 REST, and the ``ProcessResponse`` that wraps it in
``{"document": ...}``).

Shape (https://cloud.google.com/document-ai/docs/reference/rest/v1/Document and Google's
``GoogleCloudPlatform/document-ai-samples`` outputs): ``entities[]`` with ``type``,
``mentionText``, ``confidence`` in [0, 1] and ``normalizedValue`` (``text`` in ISO form, or
``moneyValue {currencyCode, units, nanos}``, ``dateValue {year, month, day}``, ...); line
items are ``line_item`` entities whose ``properties[]`` have types ``line_item/<column>``.
The Python client's proto-plus dumps use snake_case keys and ``type_``; both are read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fieldwise.imports._files import unwrap
from fieldwise.imports._model import Cell, PredictionsError, VendorDocument

__all__ = ["looks_like_google", "parse_google"]


def _get(entity: Mapping[str, Any], camel: str, snake: str) -> Any:
    return entity[camel] if camel in entity else entity.get(snake)


def _document(data: Any) -> Mapping[str, Any] | None:
    return unwrap(data, "document", "entities")


def looks_like_google(data: Any) -> bool:
    """A Document (or a response wrapping one) with ``entities[]`` that have a type."""
    document = _document(data)
    return document is not None and all(
        isinstance(e, Mapping) and ("type" in e or "type_" in e) for e in document["entities"]
    )


def _type(entity: Mapping[str, Any]) -> str:
    return str(entity.get("type", entity.get("type_", "")))


def _money(money: Mapping[str, Any]) -> float:
    # int64 fields arrive as JSON strings; nanos carry the same sign as units
    return int(money.get("units") or 0) + int(money.get("nanos") or 0) / 1e9


def _value(entity: Mapping[str, Any]) -> Any:
    normalized = _get(entity, "normalizedValue", "normalized_value")
    if isinstance(normalized, Mapping):
        if normalized.get("text") not in (None, ""):
            return normalized["text"]
        money = _get(normalized, "moneyValue", "money_value")
        if isinstance(money, Mapping):
            return _money(money)
        date = _get(normalized, "dateValue", "date_value")
        if isinstance(date, Mapping) and date.get("year"):
            return f"{int(date['year']):04d}-{int(date['month']):02d}-{int(date['day']):02d}"
    return _get(entity, "mentionText", "mention_text")


def _confidence(entity: Mapping[str, Any]) -> float | None:
    value = entity.get("confidence")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _keep(into: dict[str, Cell], name: str, cell: Cell, seen: dict[str, int]) -> None:
    """A type seen again (``OPTIONAL_MULTIPLE``) keeps its most confident value."""
    seen[name] = seen.get(name, 0) + 1
    held = into.get(name)
    if held is None or (cell.confidence or 0.0) > (held.confidence or 0.0):
        into[name] = cell


def _notes(seen: dict[str, int], kept: Mapping[str, Cell]) -> list[str]:
    return [
        f"{name}: {count} entities, kept the most confident ({kept[name].value!r})"
        for name, count in sorted(seen.items())
        if count > 1
    ]


def parse_google(data: Any, where: str) -> VendorDocument:
    """The entities of one Document; nested ``properties`` become rows of their parent type."""
    document = _document(data)
    if document is None:
        raise PredictionsError(f"{where}: a Document AI Document without entities[]")
    fields: dict[str, Cell] = {}
    arrays: dict[str, list[dict[str, Cell]]] = {}
    seen: dict[str, int] = {}
    notes: list[str] = []
    for entity in document["entities"]:
        if not isinstance(entity, Mapping):
            raise PredictionsError(f"{where}: an entity is not an object")
        name = _type(entity)
        properties = entity.get("properties")
        if properties:
            row: dict[str, Cell] = {}
            row_seen: dict[str, int] = {}
            for prop in properties:
                if isinstance(prop, Mapping):
                    _keep(row, _type(prop), Cell(_value(prop), _confidence(prop)), row_seen)
            notes += [f"{name}: {n}" for n in _notes(row_seen, row)]
            arrays.setdefault(name, []).append(row)
        else:
            _keep(fields, name, Cell(_value(entity), _confidence(entity)), seen)
    notes += _notes(seen, fields)
    return VendorDocument(fields, {k: tuple(v) for k, v in arrays.items()}, tuple(notes))
