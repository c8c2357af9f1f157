"""OCR: a scanned page (PNG) and a PDF page without a text layer (slow-ish: kept to two)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from fieldwise.service.engines.parsing import get_ocr_engine, parse_document
from fieldwise.service.engines.parsing.ocr import OcrEngine


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


def _session_threads(engine: OcrEngine) -> list[tuple[int, int]]:
    """(intra-op, inter-op) threads of each of the engine's three ONNX sessions, loaded."""
    from rapidocr_onnxruntime.utils import OrtInferSession

    rapid = engine._load()
    sessions = [
        held.session
        for model in (rapid.text_det, rapid.text_cls, rapid.text_rec)
        for held in vars(model).values()
        if isinstance(held, OrtInferSession)
    ]
    options = [session.get_session_options() for session in sessions]
    return [(o.intra_op_num_threads, o.inter_op_num_threads) for o in options]


def test_every_model_on_one_thread_whatever_the_engines_threads(scanned_png: bytes) -> None:
    one = OcrEngine(threads=1)
    assert _session_threads(one) == [(1, 1)] * 3
    assert _session_threads(OcrEngine()) == [(1, 1)] * 3  # the engine runs calls side by side
    # the same text either way
    image = Image.open(io.BytesIO(scanned_png))
    assert [r[1] for r in one.regions(image)] == [r[1] for r in get_ocr_engine().regions(image)]
    with pytest.raises(ValueError, match="at least 1"):
        OcrEngine(threads=0)
