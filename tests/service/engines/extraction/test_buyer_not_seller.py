"""A buyer's name is never the seller's (generated text invoices in three languages).

The buyer field reads "Name:" inside the blocks its section headings open; a service line
that begins with a heading's word ("Kundenservice", "Customer service", "Clientèle") opens
such a block over the seller's own "Name:" line. The seller field reads the same name: the
buyer's value is the seller's, so the engine leaves the label's reading and takes the name the
recipient's block introduces ("Rechnungsempfänger", "Bill to", "Facturé à").
"""

from __future__ import annotations

import pytest

from fieldwise.service.engines.extraction import validate_config
from tests.service.engines.extraction.text_docs import read_lines

CONFIG = validate_config(
    {
        "fields": [
            {"name": "seller", "type": "string", "labels": ["Name"], "strategy": "seller"},
            {
                "name": "buyer",
                "type": "string",
                "labels": ["Name"],
                "section": ["Kunde", "Customer", "Client", "Rechnungsempfänger", "Bill to"],
                "strategy": "buyer",
            },
        ]
    }
)


@pytest.mark.parametrize(
    ("service", "recipient"),
    [
        ("Kundenservice: 0800 123456", "Rechnungsempfänger"),
        ("Customer service: 0800 123456", "Bill to"),
        ("Clientèle : 0800 123456", "Facturé à"),
    ],
)
def test_the_buyer_is_not_the_seller_read_in_a_misopened_block(
    service: str, recipient: str
) -> None:
    got = read_lines(
        CONFIG,
        service,
        "Name: Muster Handel GmbH",
        "Hafenweg 1, 20095 Hamburg",
        "",
        "",
        "",
        recipient,
        "Beispiel Kunde AG",
        "Kundenweg 8",
    )
    assert got == {"seller": "Muster Handel GmbH", "buyer": "Beispiel Kunde AG"}


def test_a_buyer_with_only_the_sellers_name_in_reach_is_missed_not_wrong() -> None:
    got = read_lines(CONFIG, "Kundenservice: 0800 123456", "Name: Muster Handel GmbH")
    assert got == {"seller": "Muster Handel GmbH"}
