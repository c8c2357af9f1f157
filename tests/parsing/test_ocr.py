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


def test_each_model_runs_on_one_thread(scanned_png: bytes) -> None:
    """ONNX Runtime's thread per core made OCR slower alone and far slower beside the other
    engine process (benchmarks/ocr.py): every model's session is set to one thread."""
    from rapidocr_onnxruntime.utils import OrtInferSession

    parse_document(scanned_png, filename="scan.png")  # loads the models
    rapid = get_ocr_engine()._engine
    sessions = [
        held.session
        for model in (rapid.text_det, rapid.text_cls, rapid.text_rec)
        for held in vars(model).values()
        if isinstance(held, OrtInferSession)
    ]
    assert len(sessions) == 3
    for options in (session.get_session_options() for session in sessions):
        assert (options.intra_op_num_threads, options.inter_op_num_threads) == (1, 1)
