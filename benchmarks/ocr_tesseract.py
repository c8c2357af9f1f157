"""OCR on receipts: pages per second and character error rate, fieldwise beside Tesseract.

Usage: python benchmarks/ocr_tesseract.py [--pages 100] [--repeat 1] [--json]
                                          [--variant NAME=JSON ...]

The pages: the receipt scans of ``sroie-dev`` (``../shared/datasets``), as they are, in file
order. The truth: each receipt's line transcripts (``raw_box/NNN.csv``, the ninth column on).
Both sides read the same pages in the same run, taking turns (``--repeat`` rounds, median):

- fieldwise: the engine's :class:`~fieldwise.service.engines.parsing.ocr.OcrEngine` as one
  process alone makes it (models loaded before the clock), regions in reading order (top to
  bottom, then left to right);
- Tesseract (Debian ``tesseract-ocr``, ``-l eng --psm 4``, as the set's SOURCE.md checked it):
  one ``tesseract`` process over a list of every page (one model load for all), timed whole.

CER = Levenshtein distance / characters of the truth, summed over pages, both texts lower-cased
with runs of whitespace (line breaks included) made one space. The truth lists lines top to
bottom; text found but not in the truth counts as inserted characters for both sides alike.
``--variant NAME=JSON`` adds a row of fieldwise with those RapidOCR settings (e.g.
``nocls='{"use_cls": false}'``), to try settings before the engine takes one.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import emit, load_average
from _shared import shared_dataset
from PIL import Image
from rapidfuzz.distance import Levenshtein

from fieldwise.service.engines.parsing.ocr import OcrEngine

Reader = Callable[[list[Path]], list[str]]


def _truth(root: Path, stem: str) -> str:
    rows = (root / "raw_box" / f"{stem}.csv").read_text(encoding="utf-8").splitlines()
    return "\n".join(row.split(",", 8)[8] for row in rows if row.count(",") >= 8)


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _in_reading_order(regions: list[Any]) -> str:
    def key(region: Any) -> tuple[float, float]:
        ys = [p[1] for p in region[0]]
        xs = [p[0] for p in region[0]]
        return (sum(ys) / len(ys), min(xs))

    return "\n".join(text for _points, text, _score in sorted(regions, key=key))


def _ours(settings: Mapping[str, Any] | None) -> Reader:
    engine = OcrEngine(settings=settings)
    engine.regions(Image.new("RGB", (64, 32), "white"))  # load the models before the clock

    def read(paths: list[Path]) -> list[str]:
        out = []
        for path in paths:
            with Image.open(path) as image:
                out.append(_in_reading_order(engine.regions(image)))
        return out

    return read


def _tesseract(paths: list[Path]) -> list[str]:
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as listing:
        listing.write("\n".join(str(p) for p in paths) + "\n")
        listing.flush()
        done = subprocess.run(
            ["tesseract", listing.name, "stdout", "-l", "eng", "--psm", "4"],
            capture_output=True,
            text=True,
            check=True,
        )
    pages = done.stdout.split("\f")
    return [*pages, *[""] * len(paths)][: len(paths)]


def _cer(texts: list[str], truths: list[str]) -> float:
    errors = sum(
        Levenshtein.distance(_norm(t), _norm(g)) for t, g in zip(texts, truths, strict=True)
    )
    return errors / max(1, sum(len(_norm(g)) for g in truths))


def measure(
    pages: int, repeat: int, variants: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """One row per fieldwise variant, each against Tesseract timed in the same rounds."""
    root = shared_dataset("sroie-dev")
    if shutil.which("tesseract") is None:
        raise SystemExit("tesseract not found: apt-get install -y tesseract-ocr")
    paths = sorted((root / "documents").glob("*.jpg"))[:pages]
    truths = [_truth(root, p.stem) for p in paths]
    readers: dict[str, Reader] = {"tesseract": _tesseract}
    for name, settings in variants.items():
        readers[name] = _ours(settings or None)
    seconds: dict[str, list[float]] = {name: [] for name in readers}
    texts: dict[str, list[str]] = {}
    for _ in range(repeat):
        for name, read in readers.items():  # sides take turns within each round
            start = time.perf_counter()
            texts[name] = read(paths)
            seconds[name].append(time.perf_counter() - start)
    tess_rate = len(paths) / statistics.median(seconds["tesseract"])
    tess_cer = _cer(texts["tesseract"], truths)
    rows = []
    for name in variants:
        rate = len(paths) / statistics.median(seconds[name])
        cer = _cer(texts[name], truths)
        rows.append(
            {
                "row": f"OCR sroie-dev, fieldwise {name} vs Tesseract",
                "fieldwise": round(rate, 3),
                "alternative": round(tess_rate, 3),
                "unit": "pages/s",
                "ratio": round(rate / tess_rate, 3),
                "goal": ">= 1.0x at CER <= Tesseract's",
                "met": rate >= tess_rate and cer <= tess_cer,
                "cer": round(cer, 4),
                "alternative_cer": round(tess_cer, 4),
                "pages": len(paths),
                "settings": dict(variants[name]),
                "seconds": [round(s, 2) for s in seconds[name]],
                "alternative_seconds": [round(s, 2) for s in seconds["tesseract"]],
                "load_avg": round(load_average(), 2),
            }
        )
    return rows


def add_variants(parser: argparse.ArgumentParser) -> None:
    """``--variant NAME=JSON``, repeatable (read with :func:`variants_of`)."""
    parser.add_argument(
        "--variant", action="append", default=[], metavar="NAME=JSON",
        help="also the engine with these RapidOCR settings (repeat)",
    )  # fmt: skip


def variants_of(items: list[str]) -> dict[str, dict[str, Any]]:
    """The ``--variant`` items as name -> RapidOCR settings."""
    return {name: json.loads(raw) for name, _, raw in (i.partition("=") for i in items)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--pages", type=int, default=100, help="receipts to read (100: all)")
    add_variants(parser)
    args = parser.parse_args(argv)
    variants: dict[str, dict[str, Any]] = {"engine": {}, **variants_of(args.variant)}
    for row in measure(args.pages, args.repeat, variants):
        emit(row, as_json=args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
