"""B3: pages per second of fieldwise's parser, in-process and over HTTP, against raw pypdfium2.

Usage: python benchmarks/parse.py [--json] [--repeat 5] [--skip-http]

Same files on every side: the ZUGFeRD development PDFs (from ``../shared/datasets`` beside the
repository; it exits with an error when they are missing) and the text-layer PDFs of
datasets/invoices (scans are left out: the raw library cannot read them). The raw baseline is
what a user would write: open, ``get_textpage()`` and ``get_text_range()`` per page. Ours also
builds word and line boxes, reading order and Markdown.

- ``B3 parse in-process``: ``parse_document`` over every file vs the raw loop, interleaved
  repeats (median, min, max); beside it the whole-process figure (a fresh interpreter that
  imports the library and parses every file once, each side), the growth exponent over 1×,
  10× and 100× a small batch of documents, and the peak RSS of that whole process. In the
  same interleaved repeats, three references (``beside``; ``_pdf_text.py``): pdfium's own part
  (pages and text pages loaded, nothing read), the least pure-Python reader of words with
  boxes (no lines, no Markdown), and pdfplumber's ``extract_words()``, what a user who wants
  words with boxes picks. The first two bound what any pure-Python parser on pdfium can read
  against the raw loop; the third is the same words done the usual way.
- ``B3 parse HTTP``: ``POST /parse/file`` (Markdown, the default) to ``fieldwise serve`` in
  its own process, one request at a time, every upload with distinct bytes (a PDF comment after
  ``%%EOF``) so the parse cache never answers; vs the raw loop in-process, as in the issue.
  Peak RSS is the server's. Beside it, the floor: the raw loop behind a bare endpoint on the
  same ASGI stack (``_bare_parse.py``: uvicorn, Starlette, python-multipart; nothing stored
  and no layout), posted to the same way, interleaved with the other two.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import (
    Figure,
    cold_run,
    emit,
    growth,
    interleaved,
    load_average,
    python,
    timed,
    vm_hwm_mb,
)
from _pdf_text import least_words, page_texts, pdfium_part, plumber_words
from _shared import shared_dataset
from load import KEY, _serve, start_server  # servers in their own processes

if TYPE_CHECKING:
    import httpx

INVOICES = Path(__file__).resolve().parent.parent / "datasets" / "invoices"


def _paths() -> list[Path]:
    paths = sorted((shared_dataset("zugferd-dev") / "documents").glob("*.pdf"))
    docs = json.loads((INVOICES / "generator.json").read_text())["documents"]
    return paths + [INVOICES / d["file"] for d in docs if not d["scanned"]]


def _raw(data: bytes) -> int:
    return len(page_texts(data))


def _ours(data: bytes) -> int:
    from fieldwise.service.engines.parsing import parse_document

    doc = parse_document(data, ocr=False)
    assert doc.markdown is not None
    return len(doc.pages)


def _child(side: str) -> int:
    """One whole process: import, then parse every file once."""
    fn = _ours if side == "ours" else _raw
    for path in _paths():
        fn(path.read_bytes())
    return 0


def _in_process(files: list[bytes], repeat: int) -> dict[str, object]:
    _ours(files[0]), _raw(files[0])  # imports outside the timing; cold figures below
    pages = sum(_raw(d) for d in files)
    figures = interleaved(
        {
            "raw": timed(lambda: [_raw(d) for d in files]),
            "ours": timed(lambda: [_ours(d) for d in files]),
            **{name: timed(lambda fn=fn: [fn(d) for d in files]) for name, fn, _ in _BESIDE},
        },
        repeat,
    )
    ours, raw = figures["ours"], figures["raw"]
    grows = growth(lambda n: [_ours(files[i % len(files)]) for i in range(n)], [4, 40, 400])
    colds = interleaved({side: _cold(side) for side in ("raw", "ours")}, 3)
    rate, raw_rate = pages / ours.median, pages / raw.median
    row: dict[str, object] = {
        "row": "B3 parse in-process",
        "fieldwise": round(rate, 1),
        "alternative": round(raw_rate, 1),
        "unit": "pages/s",
        "ratio": round(rate / raw_rate, 2),
        "goal": ">= 0.8x",
        "met": rate / raw_rate >= 0.8,
        "exponent": round(grows, 2),
        # fieldwise's own process: this one also holds the references' (pdfplumber's) pages
        "peak_rss_mb": round(colds["ours"].peak_rss_mb),
        "fieldwise_s_min_med_max": ours.min_med_max(),
        "alternative_s_min_med_max": raw.min_med_max(),
        "whole_process_s": {
            "fieldwise": round(colds["ours"].median, 2),
            "alternative": round(colds["raw"].median, 2),
        },
        "whole_process_peak_rss_mb": {
            "fieldwise": round(colds["ours"].peak_rss_mb),
            "alternative": round(colds["raw"].peak_rss_mb),
        },
        "beside": [
            _beside(label, pages / figures[name].median, raw_rate, figures[name])
            for name, _, label in _BESIDE
        ],
        "files": len(files),
        "pages": pages,
        "load_avg": round(load_average(), 2),
    }
    return row


# the references timed with the in-process row, in the same interleaved repeats: (name, reader,
# label)
_BESIDE: tuple[tuple[str, Callable[[bytes], object], str], ...] = (
    ("pdfium", pdfium_part, "pdfium's part alone (pages and text pages loaded, nothing read)"),
    (
        "least",
        least_words,
        "the least pure-Python reader of words with boxes (no lines, no Markdown)",
    ),
    ("plumber", plumber_words, "pdfplumber extract_words (the same words; no lines, no Markdown)"),
)


def _beside(label: str, rate: float, alternative_rate: float, figure: Figure) -> dict[str, object]:
    """One reference figure of a row: its rate and its ratio against the row's alternative."""
    return {
        "label": label,
        "figure": round(rate, 1),
        "ratio": round(rate / alternative_rate, 2),
        "s_min_med_max": figure.min_med_max(),
    }


def _cold(side: str) -> Callable[[], tuple[float, float]]:
    """A whole process of one side, for ``interleaved``: (seconds, peak RSS MB)."""

    def run() -> tuple[float, float]:
        seconds, rss, _out = cold_run([*python(), __file__, "--child", side])
        return seconds, rss

    return run


def _bare_server() -> tuple[subprocess.Popen[bytes], str]:
    """``_bare_parse.py`` under uvicorn in its own process, answering."""
    command = [sys.executable, "-m", "uvicorn", "_bare_parse:app", "--log-level", "warning"]
    return start_server(
        "the bare parse server",
        lambda port: [*command, "--no-access-log", "--port", str(port)],
        "/parse/file",  # 405 to a GET, once it answers
        cwd=Path(__file__).resolve().parent,
    )


def _poster(http: httpx.Client) -> Callable[[list[bytes]], int]:
    """Post each document to ``/parse/file`` of ``http``'s server in turn; the pages parsed."""

    def post(batch: list[bytes]) -> int:
        pages = 0
        for data in batch:
            unique = data + f"\n% {uuid.uuid4().hex}\n".encode()
            answer = http.post(
                "/parse/file", files={"file": ("doc.pdf", unique, "application/pdf")}
            )
            answer.raise_for_status()
            pages += answer.json()["page_count"]
        return pages

    return post


def _http(files: list[bytes], repeat: int) -> dict[str, object]:
    """Ours over HTTP against the raw loop in-process (the issue's row); beside it the floor:
    the raw loop behind a bare endpoint on the same ASGI stack (``_bare_parse.py``), which
    shows what HTTP alone leaves of the goal."""
    import httpx

    with tempfile.TemporaryDirectory() as work:
        servers: list[subprocess.Popen[bytes]] = []
        try:
            proc, base_url = _serve(Path(work) / "svc", workers=2)
            servers.append(proc)
            bare, bare_url = _bare_server()
            servers.append(bare)
            with (
                httpx.Client(base_url=base_url, headers={"x-api-key": KEY}, timeout=120) as http,
                httpx.Client(base_url=bare_url, timeout=120) as bare_http,
            ):
                post, post_bare = _poster(http), _poster(bare_http)
                pages = post(files)  # warm: imports and first connections, not timed
                if post_bare(files) != pages:
                    raise SystemExit("the bare endpoint counted other pages than ours")
                figures = interleaved(
                    {
                        "raw": timed(lambda: [_raw(d) for d in files]),
                        "http": timed(lambda: post(files)),
                        "bare": timed(lambda: post_bare(files)),
                    },
                    repeat,
                )
                grows = growth(
                    lambda n: post([files[i % len(files)] for i in range(n)]), [4, 40, 400]
                )
            peak = vm_hwm_mb(proc.pid) or 0.0
        finally:
            for server in servers:
                server.kill()
                server.wait()
    ours, raw, floor = figures["http"], figures["raw"], figures["bare"]
    rate, raw_rate, floor_rate = pages / ours.median, pages / raw.median, pages / floor.median
    return {
        "row": "B3 parse over HTTP",
        "fieldwise": round(rate, 1),
        "alternative": round(raw_rate, 1),
        "unit": "pages/s",
        "ratio": round(rate / raw_rate, 2),
        "goal": ">= 0.5x",
        "met": rate / raw_rate >= 0.5,
        "exponent": round(grows, 2),
        "peak_rss_mb": round(peak),
        "fieldwise_s_min_med_max": ours.min_med_max(),
        "alternative_s_min_med_max": raw.min_med_max(),
        # the raw loop behind a bare endpoint: no storage, no layout; about the most that a
        # parse over this HTTP stack could read against the raw loop in-process
        "beside": [
            _beside(
                "the raw loop behind a bare endpoint on the same stack (nothing stored, no layout)",
                floor_rate,
                raw_rate,
                floor,
            )
        ],
        "files": len(files),
        "pages": pages,
        "load_avg": round(load_average(), 2),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--child", choices=("ours", "raw"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return _child(args.child)
    files = [p.read_bytes() for p in _paths()]
    row = _in_process(files, args.repeat)
    emit(row, as_json=args.json)
    if not args.skip_http:
        emit(_http(files, args.repeat), as_json=args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
