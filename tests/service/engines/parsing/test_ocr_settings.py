"""OcrEngine settings: RapidOCR keyword settings over the engine's own, threads on top."""

from __future__ import annotations

import pytest
from PIL import Image

from fieldwise.service.engines.parsing.ocr import SETTINGS, OcrEngine


def test_settings_reach_rapidocr_and_threads_still_apply() -> None:
    engine = OcrEngine(threads=1, settings={"use_cls": False, "det_limit_side_len": 640})
    assert engine.settings == {**SETTINGS, "use_cls": False, "det_limit_side_len": 640}
    assert engine.regions(Image.new("RGB", (64, 32), "white")) == []
    loaded = engine._engine
    assert loaded.use_cls is False
    assert loaded.text_det.preprocess_op.limit_side_len == 640


def test_threads_must_be_positive() -> None:
    with pytest.raises(ValueError, match="threads must be at least 1"):
        OcrEngine(threads=0, settings={})
