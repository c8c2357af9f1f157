"""OCR through rapidocr-onnxruntime (models ship with the wheel; runs offline).

Building the engine loads three ONNX models (about a second), so it happens once per process:
:func:`get_ocr_engine` is cached, and :class:`OcrEngine` itself loads lazily under a lock and
serializes recognition, because one ONNX session is not safe to share between threads here.

Each model runs on one thread (:data:`ONNX_THREADS`). ONNX Runtime's default, a thread per
core, made OCR slower on every count measured (``benchmarks/ocr.py``, the 9 scanned pages of
datasets/invoices, 2 cores): 21.0 s alone against 17.6 s on one thread, and 37-39 s against
21-23 s with two processes OCRing at once, as the service's two engine processes do. The
recognized text is the same, character for character.
"""

from __future__ import annotations

import functools
import re
import threading
from typing import Any

from PIL import Image

from fieldwise.service.engines.parsing.model import Box, Word

__all__ = ["ONNX_THREADS", "OcrEngine", "Region", "get_ocr_engine"]

#: Threads each ONNX model runs on (within one operator, and across operators).
ONNX_THREADS = 1

# one recognized text region: its corner points in pixels, its text and its score
Region = tuple[list[tuple[float, float]], str, float]

# OCR often glues "Label:value"; splitting after the colon gives the label its own word.
_TOKEN = re.compile(r"[^\s:]+:?|:")


class OcrEngine:
    """A lazily loaded, thread-safe rapidocr engine returning words with boxes and scores."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._engine: Any = None

    def _load(self) -> Any:
        if self._engine is None:
            from rapidocr_onnxruntime import RapidOCR

            self._engine = RapidOCR(
                intra_op_num_threads=ONNX_THREADS, inter_op_num_threads=ONNX_THREADS
            )
        return self._engine

    def regions(self, image: Image.Image) -> list[Region]:
        """The raw recognized text regions of ``image``: corner points (pixels), text, score."""
        import numpy as np

        pixels = np.asarray(image.convert("RGB"))
        with self._lock:
            result, _ = self._load()(pixels)
        return [
            ([(float(p[0]), float(p[1])) for p in points], str(text), float(score))
            for points, text, score in result or []
        ]

    def recognize(self, image: Image.Image, scale: float = 1.0) -> list[Word]:
        """Words found in ``image``; boxes are divided by ``scale`` (pixels per page unit)."""
        words: list[Word] = []
        for points, text, score in self.regions(image):
            xs = [float(p[0]) / scale for p in points]
            ys = [float(p[1]) / scale for p in points]
            words.extend(_split_region(str(text), Box(min(xs), min(ys), max(xs), max(ys)), score))
        return words


def _split_region(text: str, box: Box, score: float) -> list[Word]:
    """Spread a recognized text region's tokens over its box in proportion to their length."""
    tokens = [(m.start(), m.group()) for m in _TOKEN.finditer(text)]
    if not tokens or not text:
        return []
    per_char = box.width / max(len(text), 1)
    return [
        Word(
            token,
            Box(
                box.x0 + start * per_char, box.y0, box.x0 + (start + len(token)) * per_char, box.y1
            ),
            float(score),
        )
        for start, token in tokens
    ]


@functools.cache
def get_ocr_engine() -> OcrEngine:
    """The process-wide OCR engine (models load on first use)."""
    return OcrEngine()
