"""One page through RapidOCR's three models, in the batches that cost the least.

RapidOCR's own ``__call__`` does the same steps; these differ where a receipt showed the time
going (sroie-dev, ``benchmarks/ocr_profile.py``; CPU seconds of 12 receipts on one thread):

- recognition (two thirds of the time) pads every line to at least 320 px wide at 48 px high,
  so a price ``5.00`` costs as much as a whole line: here a batch, lines of similar aspect
  ratio, is padded only to its own widest (31.8 → 23.4 s, the same text);
- the angle classifier ran on every line and flipped some upright ones: here it runs on one
  batch, the page's widest lines, and the page turns as a whole when most of them read upside
  down (1.0 s → 0.1 s, fewer flipped lines);
- recognition batches are independent: ``workers`` run at once, each model call on one
  thread. ONNX Runtime's threads within one call spin while they wait; on two busy cores a
  call on two threads used 1.75 times the CPU of one thread and finished later.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import numpy as np

__all__ = ["Region", "read_page"]

# one recognized text region: its corner points in pixels, its text and its score
Region = tuple[list[tuple[float, float]], str, float]

_T = TypeVar("_T")
_R = TypeVar("_R")
Mapper = Callable[[Callable[[_T], _R], Iterable[_T]], Iterable[_R]]


def read_page(engine: Any, pixels: np.ndarray, run_all: Mapper[Any, Any] = map) -> list[Region]:
    """The text regions of ``pixels`` (RGB, height x width x 3) read by ``engine`` (a loaded
    ``rapidocr_onnxruntime.RapidOCR``); ``run_all`` maps a model call over batches (``map``, or
    an executor's, to run them at once). Regions below the engine's text score are dropped."""
    raw_h, raw_w = pixels.shape[:2]
    image, ratio_h, ratio_w = engine.preprocess(pixels)
    steps: dict[str, Any] = {"preprocess": {"ratio_h": ratio_h, "ratio_w": ratio_w}}
    image, steps = engine.maybe_add_letterbox(image, steps)
    boxes, _elapsed = engine.auto_text_det(image)
    if boxes is None:
        return []
    crops = engine.get_crop_img_list(image, boxes)
    if engine.use_cls and _upside_down(engine.text_cls, crops):
        crops = [np.ascontiguousarray(np.rot90(crop, 2)) for crop in crops]
    texts = _recognize(engine.text_rec, crops, run_all)
    points = engine._get_origin_points(boxes, steps, raw_h, raw_w)
    return [
        ([(float(x), float(y)) for x, y in corners], str(text), float(score))
        for corners, (text, score) in zip(points, texts, strict=True)
        if float(score) >= engine.text_score
    ]


def _upside_down(classifier: Any, crops: Sequence[np.ndarray]) -> bool:
    """Whether the page reads upside down: the angle classifier on its widest lines (the most
    text, the surest answer), a confident majority for 180 degrees."""
    widest = sorted(crops, key=lambda crop: crop.shape[1], reverse=True)
    sample = widest[: classifier.cls_batch_num]
    batch = np.concatenate([classifier.resize_norm_img(crop)[np.newaxis] for crop in sample])
    labels = classifier.postprocess_op(classifier.infer(batch.astype(np.float32))[0])
    flipped = sum(1 for label, score in labels if "180" in label and score > classifier.cls_thresh)
    return flipped * 2 > len(sample)


def _recognize(
    recognizer: Any, crops: Sequence[np.ndarray], run_all: Mapper[Any, Any]
) -> list[tuple[str, float]]:
    """Text and score of every crop: batches of similar aspect ratio, each padded only to its
    own widest line, read through ``run_all``."""
    ratios = [crop.shape[1] / max(1, crop.shape[0]) for crop in crops]
    order = sorted(range(len(crops)), key=ratios.__getitem__)
    size = recognizer.rec_batch_num
    batches = [order[start : start + size] for start in range(0, len(order), size)]

    def read(batch: list[int]) -> list[tuple[str, float]]:
        widest = max(ratios[i] for i in batch)
        pixels = np.concatenate(
            [recognizer.resize_norm_img(crops[i], widest)[np.newaxis] for i in batch]
        ).astype(np.float32)
        decoded = recognizer.postprocess_op(recognizer.session(pixels)[0])
        return [(str(text), float(score)) for text, score, *_rest in decoded]

    out: list[tuple[str, float]] = [("", 0.0)] * len(crops)
    for batch, texts in zip(batches, run_all(read, batches), strict=True):
        for index, text in zip(batch, texts, strict=True):
            out[index] = text
    return out
