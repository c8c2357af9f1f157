"""The issue date among several dates (generated text invoices, every date known by
construction): the other documents' dates by their words, a due date it cannot follow, the
header it stands in, and the label that names it. In each case the wrong date is the one the
engine would take by label and position alone: it comes first, or sits in a stronger position.
"""

from __future__ import annotations

from typing import Any

import pytest

from fieldwise.service.engines.extraction import validate_config
from fieldwise.service.engines.extraction.issue import not_after
from tests.service.engines.extraction.text_docs import read_lines

CONFIG = validate_config(
    {
        "date_order": "DMY",
        "fields": [
            {"name": "issued", "type": "date", "vocabulary": "issue_date"},
            {"name": "due", "type": "date", "vocabulary": "due_date"},
        ],
    }
)
ISSUED = "2024-03-09"
FAR = [""] * 24  # the body of the invoice: the next line is far from the header


def _read(*lines: str) -> dict[str, Any]:
    return read_lines(CONFIG, "Muster Handel GmbH", "", *lines)


@pytest.mark.parametrize(
    "other",
    [
        "Lieferschein Nr. 4711 vom 02.03.2024",
        "Angebot Nr. 4711 vom 02.03.2024",
        "Quotation date: 02.03.2024",
        "Date du devis : 02.03.2024",
        "Pakbon datum 02.03.2024",
    ],
)
def test_the_date_of_another_document_is_not_the_issue_date(other: str) -> None:
    got = _read(other, "Rechnung Nr. RE-2291 vom 09.03.2024")
    assert got["issued"] == ISSUED


@pytest.mark.parametrize(
    ("header", "values", "elsewhere"),
    [
        ("Rechnung Nr.       Datum", "RE-2291            09.03.2024", "Ort, Datum: 28.02.2024"),
        ("Invoice No         Date", "RE-2291            09.03.2024", "Signed, date: 28.02.2024"),
        ("Facture N°         Date", "RE-2291            09.03.2024", "Fait le, date : 28.02.2024"),
    ],
)
def test_the_issue_date_is_the_one_in_the_header(header: str, values: str, elsewhere: str) -> None:
    # the header prints its date under its label (a weaker position than the same cell)
    got = _read(header, values, *FAR, elsewhere)
    assert got["issued"] == ISSUED


@pytest.mark.parametrize(
    ("bare", "named"),
    [
        ("Datum: 02.03.2024", "Rechnungsdatum: 09.03.2024"),
        ("Date: 02.03.2024", "Invoice date: 09.03.2024"),
        ("Date : 02.03.2024", "Date de facture : 09.03.2024"),
        ("Fecha: 02.03.2024", "Fecha de factura: 09.03.2024"),
    ],
)
def test_a_label_naming_the_invoice_outranks_a_bare_date(bare: str, named: str) -> None:
    got = _read("Rechnung Nr. RE-2291", bare, named)
    assert got["issued"] == ISSUED


@pytest.mark.parametrize(
    ("late", "due"),
    [
        ("Datum: 20.04.2024", "Fällig am 08.04.2024"),
        ("Date: 20.04.2024", "Due date: 08.04.2024"),
        ("Date : 20.04.2024", "Échéance : 08.04.2024"),
    ],
)
def test_an_invoice_is_not_issued_after_it_falls_due(late: str, due: str) -> None:
    got = _read("Invoice No RE-2291", late, "Rechnung vom 09.03.2024", due)
    assert got == {"issued": ISSUED, "due": "2024-04-08"}


def test_the_due_date_drops_nothing_when_nothing_would_be_left() -> None:
    assert not_after([], "2024-01-01") == []
    got = _read("Invoice No RE-2291", "Date: 20.04.2024", "Due date: 08.04.2024")
    assert got["issued"] == "2024-04-20"
