"""B3's references (``benchmarks/_pdf_text.py``) do the work their labels claim, and
``run_all.py`` prints them beside their row.

A reference that read fewer words than the parser, or other pages, would make the floor it
stands for look lower than it is; these tests hold each to the parser's own output on real
PDFs: the text-layer invoices of the bundled sample dataset.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from fieldwise.service.engines.parsing import parse_document
from tests.benchmarks.modules import load

_INVOICES = Path(__file__).resolve().parents[2] / "datasets" / "invoices"


@pytest.fixture(scope="module")
def readers() -> ModuleType:
    return load("_pdf_text")


@pytest.fixture(scope="module")
def text_pdfs() -> list[bytes]:
    """Every text-layer PDF of the sample dataset (the scans have no words to read)."""
    documents = json.loads((_INVOICES / "generator.json").read_text())["documents"]
    return [(_INVOICES / d["file"]).read_bytes() for d in documents if not d["scanned"]]


def test_the_least_reader_finds_the_parsers_words_and_their_boxes(
    readers: ModuleType, text_pdfs: list[bytes]
) -> None:
    words = boxed = 0
    for data in text_pdfs:
        parsed = parse_document(data, ocr=False)
        least = readers.least_words(data)
        assert len(least) == len(parsed.pages)
        for page, found in zip(parsed.pages, least, strict=True):
            assert Counter(w.text for w in page.words) == Counter(text for text, _ in found)
            ours = Counter((w.text, tuple(round(v, 1) for v in w.box)) for w in page.words)
            theirs = Counter((t, tuple(round(v, 1) for v in box)) for t, box in found)
            words += len(found)
            boxed += sum((ours & theirs).values())
    assert words > 1000
    # the same box for nearly every word: it skips the parser's checks, not its reading
    assert boxed / words > 0.99


def test_pdfiums_part_and_pdfplumber_read_the_same_pages_and_words(
    readers: ModuleType, text_pdfs: list[bytes]
) -> None:
    for data in text_pdfs[:10]:
        least = readers.least_words(data)
        assert readers.pdfium_part(data) == len(readers.page_texts(data)) == len(least)
        plumber = readers.plumber_words(data)
        assert [Counter(w["text"] for w in page) for page in plumber] == [
            Counter(text for text, _ in page) for page in least
        ]


def test_run_all_prints_each_reference_under_its_row() -> None:
    run_all = load("run_all")
    row = {
        "row": "B3 parse in-process",
        "unit": "pages/s",
        "fieldwise": 1000.0,
        "beside": [
            {"label": "pdfium alone", "figure": 1700.0, "ratio": 1.06},
            {"label": "pdfplumber", "figure": 40.0, "ratio": 0.025},
        ],
    }
    plain = {"row": "B2 runs/s", "unit": "runs/s", "fieldwise": 80.0}
    lines = run_all.beside_lines({"parse.py": ([row], None, 1.0), "run.py": ([plain], None, 1.0)})
    assert lines == [
        "B3 parse in-process, beside it (against the alternative; fieldwise against it):",
        "  pdfium alone: 1,700 pages/s, 1.06x; fieldwise 0.588x",
        "  pdfplumber: 40 pages/s, 0.025x; fieldwise 25x",
    ]
