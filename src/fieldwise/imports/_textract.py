"""AWS Textract ``AnalyzeExpense`` (and ``GetExpenseAnalysis``) JSON.

Shape (https://docs.aws.amazon.com/textract/latest/dg/expensedocuments.html, the API
reference's ``ExpenseField``/``ExpenseType``, and ``aws-samples/amazon-textract-textractor``'s
``tests/fixtures/saved_api_responses/test_analyze_expense_from_path.json``):
``ExpenseDocuments[].SummaryFields[]`` and ``LineItemGroups[].LineItems[].LineItemExpenseFields[]``,
each with ``Type.Text`` (the normalised name, e.g. ``TOTAL``), ``ValueDetection.Text`` (the
raw text: Textract normalises names, not values), ``Confidence`` in percent and, on amounts,
``Currency.Code``. Line items are read as the array ``LineItems``; ``EXPENSE_ROW`` (the whole
row's text) is skipped; ``OTHER`` fields are named by their label (``OTHER:TERMINAL #``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fieldwise.imports._model import Cell, PredictionsError, VendorDocument

__all__ = ["LINE_ITEMS", "looks_like_textract", "parse_textract"]

#: The array name Textract's line items are mapped from (``LineItems.PRICE``).
LINE_ITEMS = "LineItems"
_SKIPPED = ("EXPENSE_ROW",)


def looks_like_textract(data: Any) -> bool:
    """An AnalyzeExpense response: ``ExpenseDocuments`` is a list."""
    return isinstance(data, Mapping) and isinstance(data.get("ExpenseDocuments"), list)


def _name(field: Mapping[str, Any]) -> str:
    kind = field.get("Type") or {}
    name = str(kind.get("Text") or "") if isinstance(kind, Mapping) else ""
    if name == "OTHER":
        label = field.get("LabelDetection") or {}
        text = label.get("Text") if isinstance(label, Mapping) else None
        return f"OTHER:{text}" if text else name
    return name


def _cells(fields: Sequence[Any], notes: list[str], where: str) -> dict[str, Cell]:
    """The fields by type; a type given several times (two addresses told apart only by
    ``GroupProperties``) keeps its most confident value, noted."""
    out: dict[str, Cell] = {}
    counts: dict[str, int] = {}
    for field in fields:
        if not isinstance(field, Mapping):
            raise PredictionsError(f"{where}: an expense field is not an object")
        name = _name(field)
        if not name or name in _SKIPPED:
            continue
        value = field.get("ValueDetection") or {}
        confidence = value.get("Confidence") if isinstance(value, Mapping) else None
        cell = Cell(
            value.get("Text") if isinstance(value, Mapping) else None,
            float(confidence) / 100 if isinstance(confidence, int | float) else None,
        )
        counts[name] = counts.get(name, 0) + 1
        held = out.get(name)
        if held is None or (cell.confidence or 0.0) > (held.confidence or 0.0):
            out[name] = cell
            currency = field.get("Currency")
            if isinstance(currency, Mapping) and currency.get("Code"):
                code = currency.get("Confidence")
                out[f"{name}.Currency"] = Cell(
                    currency["Code"], float(code) / 100 if isinstance(code, int | float) else None
                )
    notes += [
        f"{name}: {n} fields, kept the most confident ({out[name].value!r})"
        for name, n in sorted(counts.items())
        if n > 1
    ]
    return out


def parse_textract(data: Any, where: str) -> VendorDocument:
    """The summary fields and line items of the response's expense document (the first when
    it holds several, noted: one response per document is expected)."""
    if not looks_like_textract(data) or not data["ExpenseDocuments"]:
        raise PredictionsError(f"{where}: an AnalyzeExpense response without ExpenseDocuments[]")
    documents = data["ExpenseDocuments"]
    document = documents[0]
    if not isinstance(document, Mapping):
        raise PredictionsError(f"{where}: ExpenseDocuments[0] is not an object")
    notes: list[str] = []
    if len(documents) > 1:
        notes.append(f"{len(documents)} expense documents in one response; kept the first")
    fields = _cells(document.get("SummaryFields") or [], notes, where)
    rows = []
    for group in document.get("LineItemGroups") or []:
        for item in group.get("LineItems") or [] if isinstance(group, Mapping) else []:
            if isinstance(item, Mapping):
                rows.append(_cells(item.get("LineItemExpenseFields") or [], notes, where))
    return VendorDocument(fields, {LINE_ITEMS: tuple(rows)} if rows else {}, tuple(notes))
