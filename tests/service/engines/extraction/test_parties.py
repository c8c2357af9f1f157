"""Sections, and seller/buyer names from legal forms and party cues, on small text documents."""

from __future__ import annotations

from typing import Any

import pytest

from fieldwise._errors import ConfigError
from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.parsing import parse_document

FORM = """Rechnung Nr. 2024-117 vom 03.05.2024
Verkäufer
Name: Alpha Werkzeuge GmbH
Anschrift: Hauptstraße 1
DE 10115 Berlin
Käufer/Leistungsempfänger
Name: Beta Handel AG
Anschrift: Marktplatz 2
DE 80331 München
"""

LETTER = """Gamma Software Ltd • 1 High Street • London
                                                  INVOICE
Bill to:
Delta Analytics GmbH
Ringstraße 4
Leipzig
Total 119.00 EUR



Gamma Software Ltd, 1 High Street, London, VAT GB123456789
"""


def _run(text: str, fields: list[dict[str, Any]]) -> dict[str, Any]:
    doc = parse_document(text.encode(), filename="a.txt")
    out: dict[str, Any] = extract(doc, validate_config({"fields": fields}))
    return out


def test_a_section_chooses_the_block_of_a_repeated_label() -> None:
    seller = ["Verkäufer", "Seller"]
    buyer = ["Käufer", "Buyer"]
    out = _run(
        FORM,
        [
            {"name": "seller", "type": "string", "labels": ["Name"], "section": seller},
            {"name": "buyer", "type": "string", "labels": ["Name"], "section": buyer},
            {"name": "city", "type": "string", "section": seller, "pattern": r"\d{5}\s+(\w+)"},
            {"name": "buyer_city", "type": "string", "section": buyer, "pattern": r"\d{5}\s+(\w+)"},
        ],
    )
    assert out["value"] == {
        "seller": "Alpha Werkzeuge GmbH",
        "buyer": "Beta Handel AG",
        "city": "Berlin",
        "buyer_city": "München",
    }


def test_seller_and_buyer_from_legal_forms_and_cues() -> None:
    out = _run(
        LETTER,
        [
            {"name": "seller", "type": "string", "strategy": "seller"},
            {"name": "buyer", "type": "string", "strategy": "buyer"},
        ],
    )
    assert out["value"] == {"seller": "Gamma Software Ltd", "buyer": "Delta Analytics GmbH"}
    assert out["metadata"]["seller"]["confidence"] >= 0.5


def test_the_buyer_is_never_the_seller_even_when_printed_first() -> None:
    text = "Delta Analytics GmbH\nCustomer: Delta Analytics GmbH\nFrom: Epsilon Media B.V.\n"
    out = _run(text, [{"name": "seller", "type": "string", "strategy": "seller"}])
    assert out["value"]["seller"] == "Epsilon Media B.V."
    assert out["metadata"]["seller"]["confidence"] == pytest.approx(0.9)


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ({"type": "date", "strategy": "seller"}, "fields[0].strategy: the seller strategy reads"),
        ({"type": "array", "columns": {"a": ["A"]}, "section": ["X"]}, "fields[0].section"),
        ({"type": "string", "section": [""]}, "fields[0].section[0]: expected a non-empty"),
    ],
)
def test_new_options_are_validated(field: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        validate_config({"fields": [{"name": "f", **field}]})


VOCABULARY = (
    "Factuurnummer: 2019-0042\nFactuurdatum: 12-03-2019\n"
    "Sous-total 100,00\nzzgl. 19 % MwSt. 19,00\nNet à payer 119,00 €\n"
)
DEDUCTED = (
    "Positionssumme 180,76\nGesamtbetrag der Zuschläge 5,80\nGesamtbetrag der Abschläge -9,07\n"
    "Rechnungssumme ohne USt. 177,49\nBruttosumme 197,65\nErhaltene Anzahlungen -50,00\n"
    "Zahlbetrag 147,65\n"
)


@pytest.mark.parametrize(
    ("text", "concepts", "expected"),
    [
        # labels in Dutch, French and German; a rate printed before its label
        (
            VOCABULARY,
            {
                "number": ("string", "invoice_number"),
                "date": ("date", "issue_date"),
                "net": ("currency", "net_total"),
                "rate": ("number", "vat_rate"),
                "total": ("currency", "grand_total"),
            },
            {
                "number": "2019-0042",
                "date": "2019-03-12",
                "net": 100.0,
                "rate": 19.0,
                "total": 119.0,
            },
        ),
        # deducted amounts take their sign from their equation
        (
            DEDUCTED,
            {
                "allowances": ("currency", "allowance_total"),
                "prepaid": ("currency", "prepaid_total"),
            },
            {"allowances": 9.07, "prepaid": 50.0},
        ),
        # nothing to check against: as printed
        (
            "Erhaltene Anzahlungen -50,00\n",
            {"prepaid": ("currency", "prepaid_total")},
            {"prepaid": -50.0},
        ),
    ],
    ids=["languages", "deducted", "deducted-alone"],
)
def test_vocabulary_concepts(
    text: str, concepts: dict[str, tuple[str, str]], expected: dict[str, Any]
) -> None:
    fields = [{"name": n, "type": t, "vocabulary": c} for n, (t, c) in concepts.items()]
    assert _run(text, fields)["value"] == expected


def test_vocabulary_and_percent_are_validated() -> None:
    with pytest.raises(ConfigError, match=r"fields\[0\]\.vocabulary: unknown concept 'nope'"):
        validate_config({"fields": [{"name": "f", "vocabulary": "nope"}]})
    with pytest.raises(ConfigError, match=r"fields\[0\]\.percent: only number fields"):
        validate_config({"fields": [{"name": "f", "type": "string", "percent": True}]})


RECEIPT = """tan example
KEDAI BUKU CONTOH SDN BHD
(123456-X)
NO. 12, JALAN CONTOH 3/4
TAMAN CONTOH
81100 JOHOR BAHRU
JOHOR
Tel: 07-1234567
Date: 19/10/20188: 01: 11PM
TOTAL QTY 2
TOTAL AMT RM 60.31
ROUNDED TOTAL RM 60.30
CASH RM 70.30
CHANGE RM 10.00
"""


def test_a_receipt_header_gives_name_address_and_the_total_cash_confirms() -> None:
    out = _run(
        RECEIPT,
        [
            {"name": "company", "type": "string", "strategy": "seller"},
            {"name": "address", "type": "string", "strategy": "address"},
            {"name": "date", "type": "date"},
            {"name": "total", "type": "currency", "vocabulary": "grand_total"},
        ],
    )
    assert out["value"] == {
        "company": "KEDAI BUKU CONTOH SDN BHD",
        "address": "NO. 12, JALAN CONTOH 3/4, TAMAN CONTOH, 81100 JOHOR BAHRU, JOHOR",
        "date": "2018-10-19",
        "total": 60.3,
    }


def test_net_plus_tax_picks_the_gross_total() -> None:
    """Two amounts under "Total": labels alone cannot tell them apart, the tax line can."""
    text = "Total 40.25\nVAT 7.65\nTotal 47.90\n"
    out = _run(text, [{"name": "total", "type": "currency", "vocabulary": "grand_total"}])
    plain = _run(text, [{"name": "total", "type": "currency", "labels": ["Total"]}])
    assert plain["value"]["total"] == 40.25
    assert out["value"]["total"] == 47.9
    assert out["metadata"]["total"]["confidence"] > plain["metadata"]["total"]["confidence"]


def test_a_due_date_is_never_before_the_issue_date() -> None:
    text = "Rechnungsdatum: 05.03.2018\nZeitraum bis 31.12.2017\nZahlbar bis 04.04.2018\n"
    fields = [{"name": "due", "type": "date", "vocabulary": "due_date", "labels": ["bis"]}]
    assert _run(text, fields)["value"] == {"due": "2018-04-04"}
