"""The bulk word reader gives the words of the per-character reader it replaced.

``reference_words`` below is the reader as it was (three calls into pdfium and a box union per
character); ``text_words`` reads the page text in one call and the boxes of a token's two ends.
On every PDF at hand — the bundled invoices, the ZUGFeRD and parsee development sets (in
``../shared/datasets`` beside the repository: the test fails when they are not), and PDFs
written here with the cases that break the fast path (text objects abutting inside a word,
superscripts, wide character spacing, accents, font changes) — the words must read the
same, in the same order, and every box edge must lie within ``TOLERANCE`` of the old one;
whole parsed documents must have the same lines and Markdown. The tolerance: the one
difference seen on those files is 0.1 pt (a glyph inside a word whose loose box sits 0.1 pt
lower than its neighbours'); 0.5 pt is a twentieth of a 10 pt line, far inside what layout
tests against (half a line height to join a row, 0.35 of a character height to split a
word), and boxes print rounded to 0.01.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from fieldwise.service.engines.parsing import parse_document
from fieldwise.service.engines.parsing import pdf as pdf_module
from fieldwise.service.engines.parsing.model import Box, Word
from fieldwise.service.engines.parsing.pdf_words import exact_words, text_words
from fieldwise.service.engines.parsing.safety import REPLACEMENT, join_utf16
from tests.shared_data import SHARED_DATASETS, shared_dataset

TOLERANCE = 0.5
ROOT = Path(__file__).resolve().parents[4]
SETS = ("zugferd-dev", "parsee-invoices-dev")


def reference_words(textpage: pdfium.PdfTextPage, height: float) -> list[Word]:
    """The per-character reader as it was before the bulk reader (kept verbatim)."""
    raw = textpage.raw
    words: list[Word] = []
    chars: list[str] = []
    box: Box | None = None
    count = pdfium_c.FPDFText_CountChars(raw)
    skip = -1
    for i in range(count):
        if i == skip:
            continue
        code = pdfium_c.FPDFText_GetUnicode(raw, i)
        if 0xD800 <= code <= 0xDFFF:
            ch, pair = REPLACEMENT, False
            if 0xD800 <= code <= 0xDBFF and i + 1 < count:
                joined = join_utf16(code, pdfium_c.FPDFText_GetUnicode(raw, i + 1))
                if joined is not None:
                    ch, pair = joined, True
            if pair:
                skip = i + 1
        else:
            ch = chr(code) if 0 < code < 0x110000 else " "
        if ch.isspace() or ch == "\x00" or pdfium_c.FPDFText_IsGenerated(raw, i) == 1:
            if chars and box is not None:
                words.append(Word("".join(chars), box))
            chars, box = [], None
            continue
        left, bottom, right, top = textpage.get_charbox(i, loose=True)
        char_box = Box(left, height - top, right, height - bottom)
        if box is not None and (
            abs(char_box.cy - box.cy) > box.height / 2
            or char_box.x0 - box.x1 > char_box.height * 0.35
            or char_box.x1 < box.x0
        ):
            words.append(Word("".join(chars), box))
            chars, box = [], None
        chars.append(ch)
        box = char_box if box is None else box.union(char_box)
    if chars and box is not None:
        words.append(Word("".join(chars), box))
    return words


def tricky_pdf() -> bytes:
    """One page of the cases the fast path must hand to the per-character reader."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, "INV")  # two text objects abutting: one word or two, as before
    c.drawString(72 + c.stringWidth("INV", "Helvetica", 10), 780, "-2041")
    c.drawString(72, 760, "Total")
    c.drawString(72 + c.stringWidth("Total", "Helvetica", 10) + 4, 760, "100.00")  # 0.4 em gap
    text = c.beginText(72, 740)
    text.setFont("Helvetica", 10)
    text.setCharSpace(5)  # wide tracking inside one text object
    text.textOut("SPACED (E) Il")
    text.setCharSpace(0)
    c.drawText(text)
    text = c.beginText(72, 720)
    text.setFont("Helvetica", 10)
    text.textOut("x")
    text.setRise(4)  # a superscript glued to its base
    text.setFont("Helvetica", 6)
    text.textOut("2")
    text.setRise(0)
    text.setFont("Times-Bold", 14)  # a font change inside a word
    text.textOut("Big")
    c.drawText(text)
    c.setFont("Helvetica", 10)
    c.drawString(72, 700, "FÜR Straße Ärger (E) naïve café €12,50")
    c.drawString(72, 680, "Description    Qty    Amount")
    text = c.beginText(72, 660)
    text.setFont("Helvetica", 10)
    text.setCharSpace(5)  # wide tracking in a word of letters beyond ASCII
    text.textOut("ÜBERGRÖSSE Grüße")
    text.setCharSpace(0)
    c.drawText(text)
    text = c.beginText(72, 640)
    text.setFont("Helvetica", 10)
    text.textOut("caf")  # an accent glyph moved back over its letter, in one text object
    text._code.append("[(e) 450 (\\264) -450 (s)] TJ")
    c.drawText(text)
    c.showPage()
    c.save()
    return buf.getvalue()


def _corpus() -> list[tuple[str, bytes]]:
    meta = json.loads((ROOT / "datasets" / "invoices" / "generator.json").read_text())
    paths = [ROOT / "datasets" / "invoices" / d["file"] for d in meta["documents"]]
    for name in SETS:
        # collected at import, where a missing set cannot fail a test: the test below does
        paths += sorted((SHARED_DATASETS / name / "documents").glob("*.pdf"))
    files = [(p.name, p.read_bytes()) for p in paths]
    return [("tricky.pdf", tricky_pdf()), *files]


def _assert_same(old: list[Word], new: list[Word], where: str) -> None:
    assert [w.text for w in new] == [w.text for w in old], where
    for a, b in zip(old, new, strict=True):
        for x, y in zip(
            (a.box.x0, a.box.y0, a.box.x1, a.box.y1),
            (b.box.x0, b.box.y0, b.box.x1, b.box.y1),
            strict=True,
        ):
            assert abs(x - y) <= TOLERANCE, (where, a, b)


CORPUS = _corpus()


@pytest.mark.parametrize(("name", "data"), CORPUS, ids=[n for n, _ in CORPUS])
def test_bulk_words_match_the_per_character_reader(name: str, data: bytes) -> None:
    document = pdfium.PdfDocument(data)
    try:
        for index in range(len(document)):
            page = document[index]
            height = page.get_size()[1]
            textpage = page.get_textpage()
            old = reference_words(textpage, height)
            _assert_same(old, text_words(textpage, height), f"{name} page {index + 1}")
            _assert_same(old, exact_words(textpage, height), f"{name} page {index + 1} exact")
            textpage.close()
            page.close()
    finally:
        document.close()


class _RawTextPage:
    """A raw ``FPDF_TEXTPAGE`` (what the parser reads words from) with the two members of
    pypdfium2's text page that ``reference_words`` uses."""

    get_charbox = pdfium.PdfTextPage.get_charbox

    def __init__(self, raw: object) -> None:
        self.raw = raw
        self._as_parameter_ = raw  # how ctypes passes this object to pdfium


def _reference_raw_words(raw: object, height: float) -> list[Word]:
    return reference_words(_RawTextPage(raw), height)  # type: ignore[arg-type]  # duck-typed


@pytest.mark.parametrize(("name", "data"), CORPUS, ids=[n for n, _ in CORPUS])
def test_parsed_documents_keep_their_lines_and_markdown(
    name: str, data: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    new = parse_document(data, ocr=False)
    monkeypatch.setattr(pdf_module, "raw_text_words", _reference_raw_words)
    old = parse_document(data, ocr=False)
    assert new.markdown == old.markdown
    assert [line.text for p in new.pages for line in p.lines] == [
        line.text for p in old.pages for line in p.lines
    ]


def test_the_corpus_holds_every_pdf_of_the_development_sets() -> None:
    # without it, a checkout with no ../shared beside it passed on the bundled invoices alone
    names = {name for name, _ in CORPUS}
    for name in SETS:
        pdfs = {p.name for p in (shared_dataset(name) / "documents").glob("*.pdf")}
        assert pdfs, f"{name} has no PDFs"
        assert pdfs <= names, name


def test_the_tricky_page_reads_as_written() -> None:
    words = [w.text for w in parse_document(tricky_pdf(), ocr=False).pages[0].words]
    for word in ("Straße", "FÜR", "€12,50", "Description", "Amount"):
        assert word in words
