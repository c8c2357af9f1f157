"""Text safety: emoji glyphs come back whole; a lone surrogate never fails a parse or a run.

The PDFs are written here with a ToUnicode CMap (see ``unicode_pdf``): "A" reads as U+1F600, a
surrogate pair in UTF-16, and "B" as a lone high surrogate. They go through the parser, then
through ``POST /parse/file`` and a processor run of the real local service over HTTP.
"""

from __future__ import annotations

import json

import pytest

from fieldwise.client import Client, ops
from fieldwise.service.engines.parsing import parse_document
from fieldwise.service.engines.parsing.safety import safe_text
from tests.service.engines.parsing.unicode_pdf import unicode_pdf
from tests.service.resources.runs.conftest import make_processor, wait_run

EMOJI = "\U0001f600"
EMOJI_PDF = {"A": "D83DDE00"}
LONE_PDF = {"A": "D83DDE00", "B": "D800"}
CONFIG = {
    "fields": [
        {"name": "invoice_number", "type": "string", "labels": ["Invoice No"]},
        {"name": "total", "type": "currency", "labels": ["Total"]},
        {"name": "note", "type": "string", "labels": ["Note"]},
    ]
}


def test_a_surrogate_pair_is_read_as_one_character() -> None:
    doc = parse_document(unicode_pdf(EMOJI_PDF))
    assert doc.pages[0].lines[0].text == f"Invoice No: INV-7 {EMOJI}"
    assert EMOJI in doc.markdown
    doc.text.encode("utf-8")


def test_a_lone_surrogate_is_replaced_at_the_edge() -> None:
    doc = parse_document(unicode_pdf(LONE_PDF))
    assert doc.pages[0].lines[-1].text == f"Note: {EMOJI} \ufffd"
    json.dumps(doc.to_json(), ensure_ascii=False).encode("utf-8")
    doc.markdown.encode("utf-8")


def test_safe_text_keeps_everything_but_lone_halves() -> None:
    assert safe_text(f"a{EMOJI}b\ud800c\udc00") == f"a{EMOJI}b\ufffdc\ufffd"


def test_other_readers_are_cleaned_too() -> None:
    """A UTF-16 text file with half a pair reads, the half replaced; a whole pair stays whole."""
    data = "\ufeffNote: x\ud800y\nOk: \U0001f600".encode("utf-16-le", "surrogatepass")
    doc = parse_document(data, filename="a.txt")
    assert doc.pages[0].lines[0].text == "Note: x\ufffdy"
    assert doc.pages[0].lines[1].text == f"Ok: {EMOJI}"
    doc.markdown.encode("utf-8")


@pytest.mark.parametrize("mapping", [EMOJI_PDF, LONE_PDF], ids=["emoji", "lone-surrogate"])
def test_parse_file_and_a_processor_run_over_http(client: Client, mapping: dict[str, str]) -> None:
    data = unicode_pdf(mapping)
    for fmt in ("markdown", "text", "json"):
        parsed = client.call(ops.parse_file(data, filename="u.pdf", format=fmt))
        assert parsed.status == "succeeded"
        assert EMOJI in json.dumps(parsed.output, ensure_ascii=False)
    processor = make_processor(client, "unicode", CONFIG)
    file_id = client.upload_file(data, filename="u.pdf").id
    run = wait_run(client, processor, client.call(ops.create_run(processor, file_id)).id)
    assert run.status == "succeeded", run.error
    value = run.output["value"]
    assert value["invoice_number"] == f"INV-7 {EMOJI}"
    assert value["total"] == 12.5
    assert value["note"].startswith(EMOJI)
    if "B" in mapping:
        assert value["note"] == f"{EMOJI} \ufffd"
