"""OCR through rapidocr-onnxruntime (models ship with the wheel; runs offline).

Building the engine loads three ONNX models (about a second), so it happens once per process:
:func:`get_ocr_engine` is cached, and :class:`OcrEngine` itself loads lazily under a lock and
reads one page at a time (RapidOCR's objects keep per-call state); the steps of a page are in
:mod:`.ocr_steps`.

``threads`` is how many model calls run at once (by default one per core), each on one ONNX
Runtime thread: a page's recognition batches are spread over them. Processes that OCR side by
side share the cores out (the engine processes take one each on two cores): two processes at
once took 34 s with a thread per core against 18 s with one thread each, reading the same text
(``benchmarks/ocr.py``, 15 pages each, 2 cores). Within a process, calls on one thread each
beat one call on several: ONNX Runtime's threads spin while they wait, and on two busy cores a
recognition call on two threads used 1.75 times the CPU and finished later.
"""

from __future__ import annotations

import functools
import os
import re
import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PIL import Image

from fieldwise.service.engines.parsing.model import Box, Word
from fieldwise.service.engines.parsing.ocr_steps import Region, read_page

__all__ = ["OcrEngine", "Region", "get_ocr_engine"]

#: RapidOCR's settings where ours differ from its defaults: the detector scales the shorter side
#: to 640 px, not 736 (on 12 sroie-dev receipts 11 % less detection CPU, CER 0.2669 -> 0.2641)
SETTINGS: dict[str, Any] = {"det_limit_side_len": 640}

# OCR often glues "Label:value"; splitting after the colon gives the label its own word.
_TOKEN = re.compile(r"[^\s:]+:?|:")


class OcrEngine:
    """A lazily loaded, thread-safe rapidocr engine returning words with boxes and scores;
    ``threads`` model calls at once, each on one thread (None: one per core).
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
        self._pool: ThreadPoolExecutor | None = None

    def _load(self) -> Any:
        if self._engine is None:
            from rapidocr_onnxruntime import RapidOCR

            # one thread within and across operators: the parallelism is ours (see the module)
            settings = {**self.settings, "intra_op_num_threads": 1, "inter_op_num_threads": 1}
            self._engine = RapidOCR(**settings)
            workers = self.threads or os.cpu_count() or 1
            if workers > 1:
                self._pool = ThreadPoolExecutor(workers, thread_name_prefix="fieldwise-ocr")
        return self._engine

    def regions(self, image: Image.Image) -> list[Region]:
        """The raw recognized text regions of ``image``: corner points (pixels), text, score."""
        import numpy as np

        pixels = np.asarray(image.convert("RGB"))
        with self._lock:
            engine = self._load()
            return read_page(engine, pixels, self._pool.map if self._pool else map)

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
