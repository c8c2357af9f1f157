"""The OCR engine's own steps (``ocr_steps``): a receipt-like scan, generated here, read to its
text upright and upside down; short lines fed to recognition at their own width; batches read
at once giving the same text as one at a time."""

from __future__ import annotations

import io
import os

import pytest
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from fieldwise.service.engines.parsing.ocr import OcrEngine

# a receipt: a long line, label/amount lines, and amounts alone (the short lines)
LINES = [
    ("GREEN LEAF MART SDN BHD", None),
    ("NASI LEMAK", "7.50"),
    ("TEH TARIK", "2.80"),
    ("TOTAL", "10.30"),
    ("CASH", "20.00"),
    ("CHANGE", "9.70"),
]
WORDS = ["GREEN", "LEAF", "MART", "NASI", "LEMAK", "TEH", "TARIK", "TOTAL", "CASH", "CHANGE"]
AMOUNTS = ["7.50", "2.80", "10.30", "20.00", "9.70"]


def _receipt() -> Image.Image:
    """A narrow grey-ish JPEG scan, slightly blurred, as a phone or a fax makes them."""
    font = ImageFont.load_default(size=26)
    image = Image.new("RGB", (520, 60 + 48 * len(LINES)), (236, 234, 228))
    draw = ImageDraw.Draw(image)
    for row, (label, amount) in enumerate(LINES):
        y = 30 + 48 * row
        draw.text((24, y), label, fill=(40, 40, 40), font=font)
        if amount is not None:
            draw.text((400, y), amount, fill=(40, 40, 40), font=font)
    buf = io.BytesIO()
    image.filter(ImageFilter.GaussianBlur(0.6)).save(buf, "JPEG", quality=70)
    return Image.open(io.BytesIO(buf.getvalue()))


def _texts(engine: OcrEngine, image: Image.Image) -> list[str]:
    return [text.replace(" ", "") for _points, text, _score in engine.regions(image)]


@pytest.fixture(scope="module")
def engine() -> OcrEngine:
    return OcrEngine(threads=1)


def test_a_receipt_scan_reads_to_its_text(engine: OcrEngine) -> None:
    texts = _texts(engine, _receipt())
    joined = " ".join(texts)
    assert all(word in joined for word in WORDS), texts
    assert all(amount in texts for amount in AMOUNTS), texts  # each amount its own region


def test_an_upside_down_scan_is_turned_as_a_whole(engine: OcrEngine) -> None:
    upright = _texts(engine, _receipt())
    turned = _texts(engine, _receipt().rotate(180))
    assert sorted(turned) == sorted(upright)
    # without the angle classifier the same page reads as nonsense: the turn is the engine's
    plain = _texts(OcrEngine(threads=1, settings={"use_cls": False}), _receipt().rotate(180))
    assert not any(amount in plain for amount in AMOUNTS), plain


def test_short_lines_are_recognized_at_their_own_width(engine: OcrEngine) -> None:
    engine.regions(Image.new("RGB", (64, 32), "white"))  # loaded
    recognizer = engine._engine.text_rec
    session = recognizer.session
    widths: list[int] = []

    def recording(batch):  # type: ignore[no-untyped-def]
        widths.append(batch.shape[3])
        return session(batch)

    recognizer.session = recording
    try:
        texts = _texts(engine, _receipt())
    finally:
        recognizer.session = session
    assert all(amount in texts for amount in AMOUNTS), texts
    # RapidOCR pads every batch to 320 px at 48 px high; the amounts' batch is far narrower,
    # and only the batch holding the long heading reaches beyond 320
    assert min(widths) < 200, widths
    assert sum(1 for w in widths if w >= 320) <= 1, widths


def test_batches_read_at_once_give_the_text_read_one_at_a_time(engine: OcrEngine) -> None:
    image = _receipt()
    together = OcrEngine(threads=2, settings={"rec_batch_num": 2})  # several batches, 2 at once
    alone = OcrEngine(threads=1, settings={"rec_batch_num": 2})
    assert together.regions(image) == alone.regions(image)
    assert together._pool is not None
    assert alone._pool is None


def test_every_model_runs_on_one_thread_and_the_engine_on_one_per_core() -> None:
    engine = OcrEngine()
    rapid = engine._load()
    sessions = [rapid.text_det.infer, rapid.text_cls.infer, rapid.text_rec.session]
    options = [held.session.get_session_options() for held in sessions]
    assert [(o.intra_op_num_threads, o.inter_op_num_threads) for o in options] == [(1, 1)] * 3
    workers = os.cpu_count() or 1
    assert (engine._pool._max_workers if engine._pool else 1) == workers
