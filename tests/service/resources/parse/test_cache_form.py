"""The parse cache's stored form reads back as the very document that was parsed.

``ParseCache.get`` hands out the parsed document itself on a miss and the stored JSON form,
read back, on a hit; extraction must see the same on both, for every format.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fieldwise.service.engines.parsing import parse_document
from fieldwise.service.resources.parse.ops_cache import document_from_json, document_to_json
from tests.service.engines.parsing.conftest import make_invoice_pdf

DOCS = Path(__file__).resolve().parents[4] / "datasets" / "invoices" / "documents"
SAMPLES = {
    "invoice.pdf": make_invoice_pdf(2),
    "note.txt": "Invoice No: INV-7\nTotal: 12.50 €\n".encode(),
    "table.csv": b"item,qty,amount\nwidgets,3,1234.50\ngadgets,12,99.00\n",
    "page.html": b"<html><body><h1>ACME</h1><p>Invoice No: INV-9</p></body></html>",
    **{p.name: p.read_bytes() for p in sorted(DOCS.glob("*.pdf"))[:10]},
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_stored_form_reads_back_as_the_document(name: str) -> None:
    doc = parse_document(SAMPLES[name], filename=name, ocr=False)
    stored = json.dumps(document_to_json(doc), ensure_ascii=False, separators=(",", ":"))
    assert document_from_json(json.loads(stored)) == doc
