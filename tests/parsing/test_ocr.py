"""OCR: a scanned page (PNG) and a PDF page without a text layer (slow-ish: kept to two)."""

from __future__ import annotations

import io

from PIL import Image

from fieldwise.service.engines.parsing import get_ocr_engine, parse_document


def test_scanned_png_through_ocr(scanned_png: bytes) -> None:
    doc = parse_document(scanned_png, filename="scan.png")
    assert doc.format == "png"
    page = doc.pages[0]
    assert page.source == "ocr"
    text = doc.text.replace(" ", "")
    assert "INV-2041" in text
    assert "ACMESupplies" in text
    assert all(0 < w.confidence <= 1 for w in page.words)
    assert get_ocr_engine() is get_ocr_engine()


def test_pdf_page_without_text_layer_falls_back_to_ocr(scanned_png: bytes) -> None:
    image = Image.open(io.BytesIO(scanned_png))
    buf = io.BytesIO()
    image.convert("RGB").save(buf, "PDF", resolution=144)
    doc = parse_document(buf.getvalue(), filename="scan.pdf")
    assert doc.format == "pdf"
    assert doc.pages[0].source == "ocr"
    assert "INV-2041" in doc.text.replace(" ", "")
    # boxes are in PDF points: the page is 595 pt wide, the number sits right of x=190 pt
    word = next(w for w in doc.pages[0].words if "2041" in w.text)
    assert 150 < word.box.x0 < 300
    assert doc.pages[0].width < 600
