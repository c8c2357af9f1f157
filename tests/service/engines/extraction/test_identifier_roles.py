"""Roles of identifiers by the words around them, in several languages (generated documents).

Each text invoice prints its own number under a label that other numbers share ("Nr.", "No",
"N°"), the other number first: a customer's, an order's, a delivery note's, a VAT id, a phone
line or a page counter. Every value is known by construction; the config takes the first label
in reading order, as a user's config for unseen layouts does, so only the role words keep the
wrong number out.
"""

from __future__ import annotations

from typing import Any

import pytest

from fieldwise.service.engines.extraction import validate_config
from fieldwise.service.engines.extraction.identifiers import foreign_identifier, identifier_role
from tests.service.engines.extraction.text_docs import read_lines

CONFIG = validate_config(
    {
        "date_order": "DMY",
        "fields": [
            {
                "name": "invoice_number",
                "type": "string",
                "labels": ["Rechnungsnummer", "Rechnung Nr", "Nr", "No", "N°", "Invoice No"],
                "pattern": "[A-Za-z0-9][A-Za-z0-9./-]{2,}",
                "occurrence": "first",
            },
            {
                "name": "order_number",
                "type": "string",
                "labels": ["Bestellnummer", "Order number", "PO number", "Nr", "No", "N°"],
                "pattern": "[A-Za-z0-9][A-Za-z0-9./-]{3,}",
                "occurrence": "first",
            },
        ],
    }
)


def _read(*lines: str) -> dict[str, Any]:
    return read_lines(CONFIG, "Muster Handel", "", *lines)


@pytest.mark.parametrize(
    ("other", "mine"),
    [
        ("Kunden Nr.: 40711", "Rechnung Nr.: RE-2291"),
        ("Customer No: 40711", "Invoice No: RE-2291"),
        ("Client N°: 40711", "Facture N°: RE-2291"),
        ("Klant Nr: 40711", "Factuur Nr: RE-2291"),
        ("Lieferschein Nr.: 40711", "Rechnung Nr.: RE-2291"),
        ("Delivery note No: 40711", "Invoice No: RE-2291"),
        ("Bon de livraison N°: 40711", "Facture N°: RE-2291"),
        ("USt-Id Nr.: DE123456789", "Rechnung Nr.: RE-2291"),
        ("Tel. Nr.: 0301234567", "Rechnung Nr.: RE-2291"),
        ("Projekt Nr.: 40711", "Rechnung Nr.: RE-2291"),
        ("Cliente N°: 40711", "Fattura N°: RE-2291"),
    ],
)
def test_an_invoice_number_is_never_another_partys_or_documents_number(
    other: str, mine: str
) -> None:
    got = _read(other, mine)
    assert got["invoice_number"] == "RE-2291"


@pytest.mark.parametrize(
    ("order", "invoice"),
    [
        ("Bestell Nr.: PO-88120", "Rechnung Nr.: RE-2291"),
        ("Order No: PO-88120", "Invoice No: RE-2291"),
        ("Ihre Bestellung Nr.: PO-88120", "Rechnung Nr.: RE-2291"),
        ("Commande N°: PO-88120", "Facture N°: RE-2291"),
    ],
)
def test_an_invoice_and_its_order_number_keep_their_roles(order: str, invoice: str) -> None:
    # the invoice's line first for the order number, the order's first for the invoice number
    assert _read(invoice, order)["order_number"] == "PO-88120"
    assert _read(order, invoice)["invoice_number"] == "RE-2291"


def test_a_date_or_a_page_count_is_no_document_number() -> None:
    got = _read("Nr. 12.03.2024", "Seite Nr. 1/2", "Invoice No 2024-0815")
    assert got["invoice_number"] == "2024-0815"


def test_the_words_after_the_number_are_not_its_context() -> None:
    # "Seite" follows the invoice number in its own cell: it does not make it a page number
    got = _read("Rechnung Nr. RE-2291 Seite 1 von 2")
    assert got["invoice_number"] == "RE-2291"


def test_your_order_is_the_buyers_order_number() -> None:
    assert not foreign_identifier("order_number", "Your order", "PO-88120", "No", "PO-88120")
    assert foreign_identifier("invoice_number", "Your order", "PO-88120", "No", "PO-88120")


def test_a_fields_role_comes_from_its_vocabulary_or_its_labels() -> None:
    assert identifier_role(None, ("Rechnungsnummer", "Invoice No", "Nr")) == "invoice_number"
    assert identifier_role(None, ("Bestellnummer", "PO number")) == "order_number"
    assert identifier_role("order_number", ()) == "order_number"
    assert identifier_role(None, ("Name",)) is None
    assert not foreign_identifier(None, "Kunden", "4711", "Nr", "4711")
