"""Parsing a PDF gives exactly what it gave before the parser was made faster.

``tests/snapshots/parse-digests.json`` holds, for every PDF of the corpus of
``test_pdf_words.py`` (the bundled invoices, the ZUGFeRD and parsee development sets from
``../shared/datasets`` beside the repository, and the tricky page written here), the SHA-256 of the
parsed document's exact ``repr``: every word, box (all digits of each float), line, cell order
and the Markdown. The digests were taken with the parser of commit 59bd38c, before the fast
paths of ``pdf_words``, ``layout`` and ``markdown``; a change of any of them, or of pdfium,
fails here (the file names the pdfium build the digests were taken with, and the failure
says when it differs). Regenerate deliberately with ``FIELDWISE_UPDATE_SNAPSHOTS=1`` and
review why.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest

from fieldwise.service.engines.parsing import parse_document
from tests.service.engines.parsing.test_pdf_words import CORPUS
from tests.shared_data import SHARED_DATASETS

DIGESTS = Path(__file__).resolve().parents[3] / "snapshots" / "parse-digests.json"
UPDATE = os.environ.get("FIELDWISE_UPDATE_SNAPSHOTS") == "1"


def digest(data: bytes) -> str:
    """SHA-256 of the exact repr of the document ``data`` parses to (no OCR)."""
    doc = parse_document(data, ocr=False)
    pages = [(p.number, p.width, p.height, p.source, p.lines) for p in doc.pages]
    return hashlib.sha256(repr((doc.format, doc.markdown, pages)).encode()).hexdigest()


def _pdfium() -> str:
    """The pdfium build parsing here (its boxes are what the digests hold)."""
    return str(pdfium.PDFIUM_INFO).split("@", 1)[0]


def _stored() -> dict[str, Any]:
    if not DIGESTS.exists():
        pytest.fail(f"{DIGESTS} is missing; run with FIELDWISE_UPDATE_SNAPSHOTS=1 to create it")
    stored: dict[str, Any] = json.loads(DIGESTS.read_text(encoding="utf-8"))
    return stored


def test_every_pdf_parses_exactly_as_before() -> None:
    found = {name: digest(data) for name, data in CORPUS}
    if UPDATE:
        snapshot = {"pdfium": _pdfium(), "digests": found}
        DIGESTS.write_text(json.dumps(snapshot, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return
    stored = _stored()
    digests = stored["digests"]
    # a file of the snapshot not parsed here is a gap, not a pass (the development sets
    # missing from ../shared/datasets, before, passed on the bundled files alone)
    unparsed = sorted(set(digests) - set(found))
    assert not unparsed, (
        f"{len(unparsed)} PDFs of the stored digests are not in the corpus, e.g. {unparsed[:3]};"
        f" the development sets are read from {SHARED_DATASETS}"
    )
    differ = sorted(name for name, value in found.items() if digests.get(name) != value)
    where = ""
    if stored["pdfium"] != _pdfium():
        where = (
            f" (the digests were taken with pdfium {stored['pdfium']}, this is {_pdfium()}: if"
            " only pdfium changed, look at what it reads differently, then regenerate)"
        )
    assert not differ, f"parsed differently from the stored digest: {differ}{where}"
