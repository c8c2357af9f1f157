"""Day-first or month-first when no date of the document tells (generated text invoices).

Every numeric date below reads both ways (day and month at most 12): ``"date_order": "auto"``
finds no vote, and the order under which the invoice is issued on or before it falls due is
the document's. When both orders or neither keep that order, the default (DMY) stays.
"""

from __future__ import annotations

from typing import Any

import pytest

from fieldwise.service.engines.extraction import validate_config
from tests.service.engines.extraction.text_docs import read_lines

_RAW: dict[str, Any] = {
    "date_order": "auto",
    "fields": [
        {"name": "issued", "type": "date", "vocabulary": "issue_date"},
        {"name": "due", "type": "date", "vocabulary": "due_date"},
    ],
}
CONFIG = validate_config(_RAW)


def _read(*lines: str) -> dict[str, Any]:
    return read_lines(CONFIG, "Invoice No RE-2291", *lines)


@pytest.mark.parametrize(
    ("issued", "due"),
    [
        ("Invoice date: 03/05/2018", "Due date: 04/04/2018"),
        ("Date: 03-05-2018", "Pay by: 04-04-2018"),
    ],
)
def test_month_first_when_only_it_issues_before_the_due_date(issued: str, due: str) -> None:
    assert _read(issued, due) == {"issued": "2018-03-05", "due": "2018-04-04"}


@pytest.mark.parametrize(
    ("issued", "due"),
    [
        ("Invoice date: 05/03/2018", "Due date: 04/04/2018"),
        ("Date de facture : 05/03/2018", "Échéance : 04/04/2018"),
        ("Fecha de factura: 05/03/2018", "Vencimiento: 04/04/2018"),
    ],
)
def test_day_first_when_only_it_issues_before_the_due_date(issued: str, due: str) -> None:
    assert _read(issued, due) == {"issued": "2018-03-05", "due": "2018-04-04"}


def test_the_default_stays_when_both_orders_fit() -> None:
    assert _read("Invoice date: 02/03/2018", "Due date: 04/05/2018") == {
        "issued": "2018-03-02",
        "due": "2018-05-04",
    }


def test_an_unambiguous_date_still_decides() -> None:
    # 13/03 can only be day-first: the vote decides, whatever the due date says
    got = _read("Invoice date: 13/03/2018", "Delivered: 05/04/2018", "Due date: 04/02/2018")
    assert got["issued"] == "2018-03-13"


def test_trained_versions_resolve_the_order_the_rules_do() -> None:
    """A trained version resolves "auto" before it reads the rules' output
    (``training/model.py``): it asks the same :func:`document_date_order`, so a document
    without votes reads month-first there too, not the DMY default."""
    from fieldwise.service.engines.extraction.order import document_date_order
    from fieldwise.service.engines.parsing import parse_document

    text = "Invoice No RE-2291\nInvoice date: 03/05/2018\nDue date: 04/04/2018\n"
    doc = parse_document(text.encode(), filename="doc.txt")
    assert document_date_order(doc, CONFIG) == "MDY"
    assert document_date_order(doc, validate_config({**_RAW, "date_order": "DMY"})) == "DMY"
