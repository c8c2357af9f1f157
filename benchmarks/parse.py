"""Pages per second: fieldwise's parse_document next to raw pypdfium2 text extraction.

Usage: python benchmarks/parse.py [--repeat N]

Same files for both: the ZUGFeRD development PDFs and the text-layer PDFs of
datasets/invoices (scans are left out: the raw library cannot read them at all). The raw
baseline is what a user would write: open, ``get_textpage().get_text_range()`` per page. Ours also
builds word and line boxes, reading order and Markdown. Prints one line with both rates and the
ratio (ours / raw).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pypdfium2 as pdfium

from fieldwise.service.engines.parsing import parse_document

ZUGFERD = Path("/work/shared/datasets/zugferd-dev/documents")
INVOICES = Path(__file__).resolve().parent.parent / "datasets" / "invoices"


def _files() -> list[bytes]:
    paths = sorted(ZUGFERD.glob("*.pdf")) if ZUGFERD.is_dir() else []
    meta = INVOICES / "generator.json"
    if meta.is_file():
        docs = json.loads(meta.read_text())["documents"]
        paths += [INVOICES / d["file"] for d in docs if not d["scanned"]]
    return [p.read_bytes() for p in paths]


def _raw(data: bytes) -> int:
    document = pdfium.PdfDocument(data)
    pages = len(document)
    for index in range(pages):
        page = document[index]
        textpage = page.get_textpage()
        textpage.get_text_range()
        textpage.close()
        page.close()
    document.close()
    return pages


def _ours(data: bytes) -> int:
    doc = parse_document(data, ocr=False)
    assert doc.markdown is not None
    return len(doc.pages)


def main(argv: list[str]) -> int:
    repeat = int(argv[argv.index("--repeat") + 1]) if "--repeat" in argv else 3
    files = _files()
    rates = {}
    for name, fn in (("raw", _raw), ("ours", _ours)):
        best = float("inf")
        pages = 0
        for _ in range(repeat):
            start = time.perf_counter()
            pages = sum(fn(data) for data in files)
            best = min(best, time.perf_counter() - start)
        rates[name] = pages / best
    print(
        f"parse: {len(files)} PDFs, {pages} pages; pypdfium2 raw text {rates['raw']:.0f} pages/s; "
        f"fieldwise parse_document {rates['ours']:.0f} pages/s; ratio ours/raw "
        f"{rates['ours'] / rates['raw']:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
