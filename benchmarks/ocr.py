"""OCR pages per second: the engine processes' OCR against RapidOCR as a user builds it.

Usage: python benchmarks/ocr.py [--json] [--repeat 3] [--pages 15]

The pages: the scanned pages of datasets/invoices (PDFs without a text layer), rendered once
at the scale the parser renders them at for OCR (``render_scale``: 144 dpi), then the first
receipt scans of ``sroie-dev`` as they are (from ``../shared/datasets`` beside the repository;
it exits with an error when they are needed and missing). Both sides OCR the same pixels:

- fieldwise: an :class:`~fieldwise.service.engines.parsing.ocr.OcrEngine` on the threads an
  engine process gets, ``ocr_threads(processes)``: the cores shared out among the processes
  OCRing at once (all of them for one process alone);
- the alternative: ``RapidOCR()``, its defaults (ONNX Runtime's thread per core, in every
  process).

Each side runs in a fresh process of its own (models loaded before the clock starts); the
figure is pages per second of recognition alone (all processes' pages together). Two rows:

- ``OCR, one process``: one process at a time, interleaved repeats (median, min, max);
- ``OCR, two processes at once``: two processes of the same side started together on the
  same pages, as the service's two engine processes OCR two documents at once; the time is
  the later of the two to finish.

Both sides must read the same text (a digest of every recognized string, in order): the
script fails otherwise.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import emit, interleaved, load_average, python
from _shared import shared_dataset

INVOICES = Path(__file__).resolve().parent.parent / "datasets" / "invoices"


def _pages(count: int) -> list[Any]:
    """PIL images: the bundled scanned invoices, then receipt scans, ``count`` in all."""
    import pypdfium2 as pdfium
    from PIL import Image

    from fieldwise.service.engines.parsing import ParseLimits
    from fieldwise.service.engines.parsing.pdf import render_scale

    bound = ParseLimits().max_page_pixels
    docs = json.loads((INVOICES / "generator.json").read_text())["documents"]
    pages: list[Any] = []
    for entry in (d for d in docs if d["scanned"]):
        document = pdfium.PdfDocument((INVOICES / entry["file"]).read_bytes())
        for page in document:  # at the scale the parser renders a scan at for OCR
            scale = render_scale(page.get_width(), page.get_height(), bound)
            pages.append(page.render(scale=scale).to_pil())
        document.close()
    if len(pages) < count:
        receipts = sorted((shared_dataset("sroie-dev") / "documents").glob("*.jpg"))
        for path in receipts[: count - len(pages)]:
            with Image.open(path) as image:
                pages.append(image.convert("RGB"))
    return pages[:count]


def _reader(side: str, at_once: int) -> Callable[[Any], list[str]]:
    """The texts one side recognizes on a page, in one of ``at_once`` processes."""
    if side == "ours":
        from fieldwise.service.engines.parsing.ocr import OcrEngine
        from fieldwise.service.engines.processes import ocr_threads

        engine = OcrEngine(ocr_threads(at_once))  # as an engine process makes it
        return lambda image: [text for _points, text, _score in engine.regions(image)]
    import numpy as np
    from rapidocr_onnxruntime import RapidOCR

    rapid = RapidOCR()
    # what OcrEngine.regions hands its engine: the page's RGB pixels
    return lambda image: [
        text for _pts, text, _s in rapid(np.asarray(image.convert("RGB")))[0] or []
    ]


def _child(side: str, count: int, at_once: int) -> int:
    """One process of one side: OCR every page; print the seconds and a digest of the text."""
    pages = _pages(count)
    read = _reader(side, at_once)
    read(pages[0])  # the models load on first use: before the clock
    start = time.perf_counter()
    texts = [read(page) for page in pages]
    seconds = time.perf_counter() - start
    digest = hashlib.sha256(json.dumps(texts).encode()).hexdigest()[:16]
    print(json.dumps({"seconds": seconds, "pages": len(pages), "digest": digest}), flush=True)
    return 0


def _processes(side: str, count: int, at_once: int) -> dict[str, Any]:
    """``at_once`` processes of ``side`` started together: the slowest one's figures."""
    argv = [*python(), __file__, "--child", side, "--pages", str(count)]
    argv += ["--processes", str(at_once)]
    procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, text=True) for _ in range(at_once)]
    results = []
    try:
        for proc in procs:
            out, _ = proc.communicate()
            if proc.returncode != 0:
                raise SystemExit(f"{side}: an OCR process failed (exit {proc.returncode})")
            results.append(json.loads(out.strip().splitlines()[-1]))
    finally:  # a failed one stops its siblings too
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    digests = {r["digest"] for r in results}
    if len(digests) != 1:
        raise SystemExit(f"{side}: its processes read different text ({sorted(digests)})")
    return max(results, key=lambda r: float(r["seconds"]))


def _row(name: str, count: int, at_once: int, repeat: int) -> dict[str, Any]:
    last: dict[str, dict[str, Any]] = {}

    def side(which: str) -> Callable[[], float]:
        def run() -> float:
            last[which] = _processes(which, count, at_once)
            return float(last[which]["seconds"])

        return run

    figures = interleaved({"default": side("default"), "ours": side("ours")}, repeat)
    if last["ours"]["digest"] != last["default"]["digest"]:
        raise SystemExit(f"{name}: fieldwise and RapidOCR() read different text")
    pages = int(last["ours"]["pages"]) * at_once  # every process OCRs every page
    ours, default = figures["ours"], figures["default"]
    rate, default_rate = pages / ours.median, pages / default.median
    return {
        "row": name,
        "fieldwise": round(rate, 2),
        "alternative": round(default_rate, 2),
        "unit": "pages/s",
        "ratio": round(rate / default_rate, 2),
        "goal": ">= 1.0x",
        "met": rate >= default_rate,
        "fieldwise_s_min_med_max": ours.min_med_max(),
        "alternative_s_min_med_max": default.min_med_max(),
        "pages": pages,
        "processes": at_once,
        "same_text": True,
        "load_avg": round(load_average(), 2),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pages", type=int, default=15, help="pages per process (15)")
    parser.add_argument("--child", choices=("ours", "default"), help=argparse.SUPPRESS)
    parser.add_argument("--processes", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return _child(args.child, args.pages, args.processes)
    emit(_row("OCR, one process", args.pages, 1, args.repeat), as_json=args.json)
    emit(_row("OCR, two processes at once", args.pages, 2, args.repeat), as_json=args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
