"""The opt-in config options on PDFs drawn here, so every expected value is known.

One page (reportlab, text layer, A4 points; y grows up in reportlab):
- a letterhead: "Acme Widgets Ltd" in 22 pt at the top left, "INVOICE" in 22 pt at the right,
  two 9 pt address lines ("Harbour Road 12", "Bristol") below;
- "Invoice No: INV-1001" (or ``number``) and, far down, "Registry No: 998877" (a second "No" label);
- "Date: 05/11/2026" and "Due: 05/23/2026" (month first: 23 cannot be a month) or, in the
  no-evidence variant, "Due: 06/12/2026";
- "Delivered: 28-Sep-2025" (a hyphenated month name);
- a table Description | Qty | Amount whose rows carry indented 7 pt sub-lines
  ("Pos. 01 · article 4711"), and whose first description "Bolts M8 (box of 100)" runs under
  the Qty header;
- amounts printed with "€" and no "Currency" label (unless ``currency_label``).
"""

from __future__ import annotations

import io
from typing import Any

import pytest

from fieldwise._errors import ConfigError
from fieldwise.service.engines.extraction import extract, parse_date, validate_config
from fieldwise.service.engines.parsing import ParsedDocument, parse_document

ROWS = (("Bolts M8 (box of 100)", 10, 341.30), ("Safety gloves", 2, 25.50))


def render(
    *, due: str = "05/23/2026", currency_label: bool = False, number: str = "INV-1001"
) -> bytes:
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(595, 842), invariant=1)
    c.setFont("Helvetica-Bold", 22)
    c.drawString(50, 790, "Acme Widgets Ltd")
    c.drawRightString(545, 790, "INVOICE")
    c.setFont("Helvetica", 9)
    c.drawString(50, 772, "Harbour Road 12")
    c.drawString(50, 761, "Bristol")
    c.setFont("Helvetica", 10)
    c.drawString(330, 720, f"Invoice No: {number}")
    c.drawString(330, 705, "Date: 05/11/2026")
    c.drawString(330, 690, f"Due: {due}")
    c.drawString(330, 675, "Delivered: 28-Sep-2025")
    if currency_label:
        c.drawString(330, 660, "Currency: USD")
    y = 620
    c.drawString(50, y, "Description")
    c.drawString(150, y, "Qty")
    c.drawRightString(500, y, "Amount")
    for n, (name, qty, amount) in enumerate(ROWS, start=1):
        y -= 16
        c.setFont("Helvetica", 10)
        c.drawString(50, y, name)
        c.drawString(200, y, str(qty))
        c.drawRightString(500, y, f"€{amount:,.2f}")
        y -= 11
        c.setFont("Helvetica", 7)
        c.drawString(58, y, f"Pos. {n:02d} · article 47{n:02d}")
    c.setFont("Helvetica", 10)
    c.drawString(330, y - 30, f"Total €{sum(a for _, _, a in ROWS):,.2f}")
    c.drawString(50, 100, "Registry No: 998877")
    c.showPage()
    c.save()
    return buf.getvalue()


@pytest.fixture(scope="module")
def doc() -> ParsedDocument:
    return parse_document(render(), ocr=False)


def _run(doc: ParsedDocument, fields: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    return extract(doc, validate_config({**top, "fields": fields}))


VENDOR: dict[str, Any] = {"name": "vendor", "type": "string", "labels": ["Vendor"]}
NUMBER: dict[str, Any] = {"name": "number", "type": "string", "labels": ["Invoice No"]}


def test_letterhead_reads_the_unlabeled_sender(doc: ParsedDocument) -> None:
    assert "vendor" not in _run(doc, [VENDOR, NUMBER])["value"]
    out = _run(doc, [{**VENDOR, "strategy": "letterhead"}, NUMBER])
    assert out["value"]["vendor"] == "Acme Widgets Ltd"  # not the title "INVOICE"
    assert out["metadata"]["vendor"]["confidence"] >= 0.9  # 22 pt against 9 pt: clear
    assert out["metadata"]["vendor"]["page"] == 1


def test_letterhead_exclude_and_labels_of_other_fields(doc: ParsedDocument) -> None:
    spec = {**VENDOR, "strategy": "letterhead", "exclude": ["Acme Widgets Ltd"]}
    # the 10 pt lines in the top quarter are dropped for carrying the other fields' labels
    dates = [{"name": n.lower(), "type": "date", "labels": [n]} for n in ("Date", "Delivered")]
    out = _run(doc, [spec, NUMBER, *dates])
    # the runner-up is a 9 pt address line that nothing makes stand out: unsure
    assert out["value"]["vendor"] == "Harbour Road 12"
    assert out["metadata"]["vendor"]["confidence"] < 0.7
    street = {"name": "street", "type": "string", "labels": ["Harbour Road"]}
    out = _run(doc, [spec, NUMBER, *dates, street])
    assert out["value"]["vendor"] == "Bristol"


def test_letterhead_after_a_labelled_match(doc: ParsedDocument) -> None:
    spec = {**VENDOR, "labels": ["Invoice No"], "strategy": "letterhead"}
    assert _run(doc, [spec])["value"]["vendor"] == "INV-1001"


CURRENCY: dict[str, Any] = {
    "name": "currency",
    "type": "enum",
    "values": ["EUR", "USD", "GBP"],
    "labels": ["Currency"],
}


def test_currency_inferred_from_symbols_with_a_lower_confidence(doc: ParsedDocument) -> None:
    assert "currency" not in _run(doc, [CURRENCY])["value"]
    out = _run(doc, [{**CURRENCY, "infer_from_symbols": True}])
    assert out["value"]["currency"] == "EUR"
    assert 0.5 <= out["metadata"]["currency"]["confidence"] <= 0.8
    labelled = parse_document(render(currency_label=True), ocr=False)
    out = _run(labelled, [{**CURRENCY, "infer_from_symbols": True}])
    assert out["value"]["currency"] == "USD"  # a label beats the symbols
    assert out["metadata"]["currency"]["confidence"] >= 0.9


def test_date_order_auto_follows_the_documents_clear_dates(doc: ParsedDocument) -> None:
    fields = [
        {"name": "date", "type": "date", "labels": ["Date"]},
        {"name": "due", "type": "date", "labels": ["Due"]},
    ]
    assert _run(doc, fields, date_order="DMY")["value"]["date"] == "2026-11-05"
    out = _run(doc, fields, date_order="auto")
    assert out["value"] == {"date": "2026-05-11", "due": "2026-05-23"}
    unclear = parse_document(render(due="06/12/2026"), ocr=False)
    assert _run(unclear, fields, date_order="auto")["value"]["date"] == "2026-11-05"


def test_lenient_dates(doc: ParsedDocument) -> None:
    field = {"name": "delivered", "type": "date", "labels": ["Delivered"]}
    assert "delivered" not in _run(doc, [field])["value"]
    assert _run(doc, [field], lenient_dates=True)["value"]["delivered"] == "2025-09-28"
    for text, iso in (("16May2026", "2026-05-16"), ("March1,2025", "2025-03-01")):
        assert parse_date(text) is None
        parsed = parse_date(text, lenient=True)
        assert parsed is not None
        assert parsed.value == iso


ITEMS: dict[str, Any] = {
    "name": "items",
    "type": "array",
    "columns": {"description": ["Description"], "quantity": ["Qty"], "amount": ["Amount"]},
    "column_types": {"quantity": "number", "amount": "currency"},
}


def test_table_sub_lines_and_gap_cells(doc: ParsedDocument) -> None:
    rows = _run(doc, [ITEMS])["value"]["items"]
    assert rows[0]["description"] != ROWS[0][0]  # "(box of" + quantity 100, sub-line merged
    assert "Pos. 02" in rows[1]["description"]
    rows = _run(doc, [{**ITEMS, "sub_lines": "skip", "cells": "gaps"}])["value"]["items"]
    assert rows == [
        {"description": name, "quantity": qty, "amount": amount} for name, qty, amount in ROWS
    ]


def test_occurrence_first() -> None:
    doc = parse_document(render(number="INV-1001 (copy)"), ocr=False)
    spec = {"name": "number", "type": "string", "labels": ["No"], "pattern": "[A-Z0-9-]{6,}"}
    out = _run(doc, [spec])
    assert out["value"]["number"] == "998877"  # alone in its cell: stronger than "INV-1001 (copy)"
    out = _run(doc, [{**spec, "occurrence": "first"}])
    assert out["value"]["number"] == "INV-1001"
    assert out["metadata"]["number"]["confidence"] < 0.9  # a stronger value was overruled


def test_defaults_extract_exactly_as_without_the_keys(doc: ParsedDocument) -> None:
    plain = [VENDOR, NUMBER, CURRENCY, ITEMS]
    explicit = [
        {**VENDOR, "strategy": "labels", "occurrence": "best"},
        NUMBER,
        {**CURRENCY, "infer_from_symbols": False},
        {**ITEMS, "sub_lines": "merge", "cells": "words"},
    ]
    assert _run(doc, plain) == _run(doc, explicit, lenient_dates=False)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"strategy": "top"}, "fields[0].strategy: expected one of labels, letterhead"),
        ({"type": "currency", "strategy": "letterhead"}, "fields[0].strategy"),
        ({"exclude": ["x"]}, "fields[0].exclude: only the letterhead and seller strategies"),
        ({"strategy": "letterhead", "exclude": [1]}, "fields[0].exclude[0]"),
        ({"infer_from_symbols": True}, "fields[0].infer_from_symbols: only enum fields"),
        ({"infer_from_symbols": "yes"}, "fields[0].infer_from_symbols: expected true or false"),
        ({"sub_lines": "skip"}, "fields[0].sub_lines: only array fields"),
        ({"cells": "gaps"}, "fields[0].cells: only array fields"),
        ({"occurrence": "last"}, "fields[0].occurrence: expected one of best, first"),
    ],
)
def test_option_errors_name_the_key(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        validate_config({"fields": [{**VENDOR, **change}]})
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"fields": [{**ITEMS, "sub_lines": "drop"}]}, "fields[0].sub_lines: expected one of"),
        ({"fields": [{**ITEMS, "cells": "chars"}]}, "fields[0].cells: expected one of"),
        ({"fields": [{**ITEMS, "occurrence": "first"}]}, "fields[0].occurrence"),
        ({"lenient_dates": 1, "fields": [VENDOR]}, "lenient_dates: expected true or false"),
        ({"date_order": "ADM", "fields": [VENDOR]}, "date_order: expected one of"),
    ],
)
def test_array_and_top_level_errors(raw: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        validate_config(raw)
    assert message in str(info.value)
