"""Where OCR's time goes on receipts: CPU seconds per model, fieldwise's steps beside RapidOCR's.

Usage: python benchmarks/ocr_profile.py [--pages 12] [--json] [--variant NAME=JSON ...]

Detection (with its resizing and box finding) and the model calls of the angle classifier and
of text recognition are timed in CPU seconds of the thread that makes it, one thread per call,
so the figures hold on a busy machine where wall-clock time does not. Rows: ``rapidocr``, the
same loaded models through RapidOCR's own ``__call__`` (every line padded to 320 px, the angle
classifier on every line); ``engine``, :class:`OcrEngine`'s steps (:mod:`.ocr_steps`); one row
per ``--variant`` (RapidOCR settings over the engine's). Each row gives the CER against the
``raw_box`` transcripts (as ``ocr_tesseract.py`` counts it), the settings over the engine's
(the ``rapidocr`` row takes back RapidOCR's own), the regions read and the median
size of the image the detector is fed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from _measure import emit, load_average
from _shared import shared_dataset
from ocr_tesseract import _cer, _in_reading_order, _truth, add_variants, variants_of
from PIL import Image

from fieldwise.service.engines.parsing.ocr import SETTINGS, OcrEngine


def _rapidocr_defaults() -> dict[str, Any]:
    """RapidOCR's own values of the settings the engine changes (:data:`SETTINGS`)."""
    from rapidocr_onnxruntime.main import DEFAULT_CFG_PATH
    from rapidocr_onnxruntime.utils import read_yaml

    config = read_yaml(str(DEFAULT_CFG_PATH))
    sections = {"det": "Det", "cls": "Cls", "rec": "Rec"}
    out = {}
    for key in SETTINGS:
        section = sections.get(key.split("_")[0], "Global")
        out[key] = config[section][key[4:] if section == "Det" else key]
    return out


class _Clock:
    """CPU seconds of the calling thread, summed per step."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {"detection": 0.0, "angle": 0.0, "recognition": 0.0}

    def wrap(self, step: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.thread_time()
            try:
                return call(*args, **kwargs)
            finally:
                self.seconds[step] += time.thread_time() - start

        return timed


def _profile(
    name: str, settings: Mapping[str, Any], paths: list[Path], truths: list[str]
) -> dict[str, Any]:
    ocr = OcrEngine(threads=1, settings=settings)
    ocr.regions(Image.new("RGB", (64, 32), "white"))  # load the models before the clock
    rapid = ocr._engine
    clock = _Clock()
    rapid.auto_text_det = clock.wrap("detection", rapid.auto_text_det)
    rapid.text_cls.infer = clock.wrap("angle", rapid.text_cls.infer)
    rapid.text_rec.session = clock.wrap("recognition", rapid.text_rec.session)
    fed: list[int] = []
    preprocess = rapid.text_det.get_preprocess

    def sizes(longest: int) -> Any:  # the detector's input, after RapidOCR's own resizing
        step = preprocess(longest)
        resize = step.resize

        def noted(img: np.ndarray) -> Any:
            out = resize(img)
            fed.append(out.shape[0] * out.shape[1])
            return out

        step.resize = noted
        return step

    rapid.text_det.get_preprocess = sizes
    texts, regions, total = [], 0, 0.0
    for path in paths:
        with Image.open(path) as image:
            pixels = np.asarray(image.convert("RGB"))
        start = time.thread_time()
        if name == "rapidocr":
            found = [(p, t, s) for p, t, s in (rapid(pixels)[0] or [])]
        else:
            found = ocr.regions(Image.fromarray(pixels))
        total += time.thread_time() - start
        regions += len(found)
        texts.append(_in_reading_order(found))
    return {
        "row": f"OCR profile sroie-dev, {name}",
        "cpu_s": round(total, 2),
        **{f"{step}_cpu_s": round(s, 2) for step, s in clock.seconds.items()},
        "cer": round(_cer(texts, truths), 4),
        "regions": regions,
        "pages": len(paths),
        "detector_input_median_mpx": round(statistics.median(fed) / 1e6, 2) if fed else 0.0,
        "settings": dict(settings),
        "load_avg": round(load_average(), 2),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    parser.add_argument("--pages", type=int, default=12, help="receipts to read")
    add_variants(parser)
    args = parser.parse_args(argv)
    root = shared_dataset("sroie-dev")
    paths = sorted((root / "documents").glob("*.jpg"))[: args.pages]
    truths = [_truth(root, p.stem) for p in paths]
    rows: dict[str, dict[str, Any]] = {
        "rapidocr": _rapidocr_defaults(),
        "engine": {},
        **variants_of(args.variant),
    }
    for name, settings in rows.items():
        row = _profile(name, settings, paths, truths)
        line = f"{row['row']}: " + ", ".join(f"{k} {v}" for k, v in row.items() if k != "row")
        emit(row, line, as_json=args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
