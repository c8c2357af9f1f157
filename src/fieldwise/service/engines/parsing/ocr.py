"""OCR through rapidocr-onnxruntime (models ship with the wheel; runs offline).

Building the engine loads three ONNX models (about a second), so it happens once per process:
:func:`get_ocr_engine` is cached, and :class:`OcrEngine` itself loads lazily under a lock and
serializes recognition, because one ONNX session is not safe to share between threads here.

``threads`` sets how many threads each ONNX model runs on; by default ONNX Runtime's own
choice, a thread per core, which is the fastest for a process that OCRs alone. Processes that
OCR side by side should share the cores out instead (the engine processes take one each on
two cores): two processes at once took 34 s with a thread per core against 18 s with one
thread each, reading the same text (``benchmarks/ocr.py``, 15 pages each, 2 cores).
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Mapping
from typing import Any

from PIL import Image

from fieldwise.service.engines.parsing.model import Box, Word

__all__ = ["OcrEngine", "Region", "get_ocr_engine"]

# one recognized text region: its corner points in pixels, its text and its score
Region = tuple[list[tuple[float, float]], str, float]

#: RapidOCR's settings where ours differ from its defaults (none yet)
SETTINGS: dict[str, Any] = {}

# OCR often glues "Label:value"; splitting after the colon gives the label its own word.
_TOKEN = re.compile(r"[^\s:]+:?|:")


class OcrEngine:
    """A lazily loaded, thread-safe rapidocr engine returning words with boxes and scores;
    each model on ``threads`` threads (None: ONNX Runtime's default, one per core).
    ``settings`` are RapidOCR keyword settings over :data:`SETTINGS` (for benchmarks that try
    others: ``benchmarks/ocr_tesseract.py --variant``)."""

    def __init__(
        self, threads: int | None = None, settings: Mapping[str, Any] | None = None
    ) -> None:
        if threads is not None and threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads}")
        self.threads = threads
        self.settings = {**SETTINGS, **(settings or {})}
        self._lock = threading.Lock()
        self._engine: Any = None

    def _load(self) -> Any:
        if self._engine is None:
            from rapidocr_onnxruntime import RapidOCR

            settings = dict(self.settings)
            if (n := self.threads) is not None:  # within one operator and across operators
                settings.update(intra_op_num_threads=n, inter_op_num_threads=n)
            self._engine = RapidOCR(**settings)
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
