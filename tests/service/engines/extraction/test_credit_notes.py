"""Credit notes: recognised by title or type code, amounts signed as the config declares.

Generated text documents: the same totals printed under an invoice title, under credit-note
titles in four languages, with a printed document type code, and printed with a minus sign.
"""

from __future__ import annotations

from typing import Any

import pytest

from fieldwise._errors import ConfigError
from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.extraction.credit import is_credit_note
from fieldwise.service.engines.parsing import parse_document

BODY = (
    "Date: 09.03.2024",
    "Subtotal                  1,000.00",
    "VAT 19 %                    190.00",
    "Total                     1,190.00",
)


def _doc(title: str, body: tuple[str, ...] = BODY) -> Any:
    text = "\n".join(["Lieferant GmbH", title, "", *body]) + "\n"
    return parse_document(text.encode(), filename="doc.txt")


def _read(title: str, sign: str | None, body: tuple[str, ...] = BODY) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "fields": [
            {"name": "total", "type": "currency", "vocabulary": "grand_total"},
            {"name": "tax", "type": "currency", "vocabulary": "tax_total"},
            {"name": "issued", "type": "date", "vocabulary": "issue_date"},
        ]
    }
    if sign is not None:
        raw["credit_note_sign"] = sign
    values: dict[str, Any] = extract(_doc(title, body), validate_config(raw))["value"]
    return values


@pytest.mark.parametrize(
    "title",
    ["Credit note CN-2024-17", "GUTSCHRIFT Nr. 17", "Avoir n° 17", "Note de crédit 17"],
)
def test_a_credit_note_is_known_by_its_title(title: str) -> None:
    assert is_credit_note(_doc(title))


@pytest.mark.parametrize(
    ("title", "credit"),
    [
        ("Document type: 381", True),
        ("Rechnungsart 261", True),
        ("Document type: 380", False),
        ("Invoice INV-381-2", False),
        ("Invoice 381", False),
    ],
)
def test_a_type_code_names_a_credit_note_only_beside_a_type_label(title: str, credit: bool) -> None:
    assert is_credit_note(_doc(title)) is credit


def test_an_invoice_or_prose_about_a_credit_note_is_not_one() -> None:
    assert not is_credit_note(_doc("Invoice 2024-17"))
    assert not is_credit_note(_doc("A credit note for the returned goods will follow."))


def test_declared_negative_signs_the_totals_of_a_credit_note_only() -> None:
    got = _read("Credit note 17", "negative")
    assert (got["total"], got["tax"], got["issued"]) == (-1190.0, -190.0, "2024-03-09")
    assert _read("Invoice 17", "negative")["total"] == 1190.0


def test_declared_positive_takes_the_printed_size_of_a_minus_amount() -> None:
    minus = tuple(line.replace("1,190.00", "-1,190.00") for line in BODY)
    assert _read("Gutschrift 17", "positive", minus)["total"] == 1190.0
    assert _read("Gutschrift 17", None, minus)["total"] == -1190.0  # default: as printed


def test_an_unknown_sign_convention_is_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="credit_note_sign"):
        _read("Invoice 17", "flipped")
