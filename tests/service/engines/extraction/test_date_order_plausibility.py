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

CONFIG = validate_config(
    {
        "date_order": "auto",
        "fields": [
            {"name": "issued", "type": "date", "vocabulary": "issue_date"},
            {"name": "due", "type": "date", "vocabulary": "due_date"},
        ],
    }
)


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
