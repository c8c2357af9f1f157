"""Write a whole synthetic dataset folder; the same seed always gives the same bytes."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pypdfium2 as pdfium

from fieldwise._errors import DatasetError
from fieldwise._pdfium import PDFIUM_LOCK
from fieldwise.datasets.generate._content import make_invoice, make_receipt
from fieldwise.datasets.generate._files import dataset_toml, processor_configs
from fieldwise.datasets.generate._layouts import INVOICE_LAYOUTS, RECEIPT_LAYOUTS
from fieldwise.datasets.generate._receipt import render_receipt
from fieldwise.datasets.generate._render import render_invoice
from fieldwise.datasets.generate._scan import scan_to_pdf, scan_to_png

__all__ = ["KINDS", "GeneratedDataset", "GeneratedDocument", "Kind", "generate_dataset"]

Kind = Literal["invoices", "receipts"]
KINDS: tuple[Kind, ...] = ("invoices", "receipts")
METADATA_FILE = "generator.json"
# What --force may replace: only what the generator itself writes, never other files.
_GENERATED = (
    "dataset.toml",
    "ground_truth.jsonl",
    METADATA_FILE,
    "documents",
    "processor",
)


@dataclass(frozen=True)
class GeneratedDocument:
    """One generated document: its file, layout, page count and whether it is a scan."""

    file: str
    layout: str
    pages: int
    scanned: bool


@dataclass(frozen=True)
class GeneratedDataset:
    """What :func:`generate_dataset` wrote."""

    root: Path
    kind: str
    seed: int
    documents: tuple[GeneratedDocument, ...]

    @property
    def total_bytes(self) -> int:
        """Size of the documents on disk."""
        return sum((self.root / doc.file).stat().st_size for doc in self.documents)


def generate_dataset(
    kind: Kind,
    count: int,
    seed: int,
    out_dir: str | Path,
    *,
    scanned_share: float = 0.15,
    force: bool = False,
    on_document: Callable[[GeneratedDocument], None] | None = None,
) -> GeneratedDataset:
    """Write a complete dataset of ``count`` synthetic ``kind`` documents to ``out_dir``.

    Writes ``dataset.toml``, ``documents/``, ``ground_truth.jsonl``, ``processor/v1.json`` and
    ``processor/v2.json`` (baseline and candidate) and ``generator.json`` (layout and scan flag
    of each document). Exactly ``round(count * scanned_share)`` documents are scans without a
    text layer. Same arguments, same bytes.

    Raises:
        DatasetError: bad arguments, or ``out_dir`` is not empty and ``force`` is false.
    """
    if kind not in KINDS:
        raise DatasetError(f"unknown dataset kind {kind!r} (one of: {', '.join(KINDS)})")
    if count < 1 or seed < 0 or not 0.0 <= scanned_share <= 1.0:
        raise DatasetError("count must be >= 1, seed >= 0 and scanned_share within [0, 1]")
    root = Path(out_dir)
    _prepare(root, force=force)

    layouts = INVOICE_LAYOUTS if kind == "invoices" else RECEIPT_LAYOUTS
    plan = random.Random(f"fieldwise:{kind}:{seed}")
    order = [index % len(layouts) for index in range(count)]
    plan.shuffle(order)
    scanned = set(plan.sample(range(count), round(count * scanned_share)))
    stem = "invoice" if kind == "invoices" else "receipt"
    width = max(3, len(str(count)))

    (root / "documents").mkdir(parents=True, exist_ok=True)
    documents: list[GeneratedDocument] = []
    truth_lines: list[str] = []
    present: set[str] = set()
    for index in range(count):
        rng = random.Random(f"fieldwise:{kind}:{seed}:{index}")
        noise = np.random.default_rng([seed, index])
        if kind == "invoices":
            invoice = make_invoice(rng)
            pdf, truth = (
                render_invoice(invoice, INVOICE_LAYOUTS[order[index]]),
                invoice.ground_truth(),
            )
        else:
            receipt = make_receipt(rng)
            pdf, truth = (
                render_receipt(receipt, RECEIPT_LAYOUTS[order[index]]),
                receipt.ground_truth(),
            )
        pages = _page_count(pdf)
        suffix = ".pdf"
        if index in scanned:
            # Half the scanned receipts are photos (PNG); scanned invoices stay PDFs.
            if kind == "receipts" and index % 2:
                pdf, suffix = scan_to_png(pdf, noise), ".png"
            else:
                pdf = scan_to_pdf(pdf, noise)
        file = f"documents/{stem}-{index + 1:0{width}d}{suffix}"
        (root / file).write_bytes(pdf)
        truth_lines.append(json.dumps({"file": file, "ground_truth": truth}, ensure_ascii=False))
        present |= _names(truth)
        document = GeneratedDocument(file, layouts[order[index]].name, pages, index in scanned)
        documents.append(document)
        if on_document is not None:
            on_document(document)

    (root / "ground_truth.jsonl").write_text("\n".join(truth_lines) + "\n", encoding="utf-8")
    toml = dataset_toml(kind, root.resolve().name, seed, len(layouts), len(scanned), present)
    (root / "dataset.toml").write_text(toml, encoding="utf-8")
    (root / "processor").mkdir(exist_ok=True)
    baseline, candidate = processor_configs(kind)
    (root / "processor" / "v1.json").write_text(baseline, encoding="utf-8")
    (root / "processor" / "v2.json").write_text(candidate, encoding="utf-8")
    metadata = {
        "generator": "fieldwise.datasets.generate",
        "kind": kind,
        "count": count,
        "seed": seed,
        "scanned_share": scanned_share,
        "documents": [doc.__dict__ for doc in documents],
    }
    (root / METADATA_FILE).write_text(json.dumps(metadata, indent=1) + "\n", encoding="utf-8")
    return GeneratedDataset(root, kind, seed, tuple(documents))


def _names(truth: dict[str, Any]) -> set[str]:
    """The fields of one document's ground truth, and ``line_items[].amount`` for columns."""
    names = set(truth)
    for key, value in truth.items():
        if isinstance(value, list):
            names |= {f"{key}[].{column}" for row in value for column in row}
    return names


def _prepare(root: Path, *, force: bool) -> None:
    if root.exists() and not root.is_dir():
        raise DatasetError(f"output path exists and is not a folder: {root}")
    if root.is_dir() and any(root.iterdir()):
        if not force:
            raise DatasetError(f"output folder is not empty: {root} (use --force to overwrite)")
        for name in _GENERATED:
            path = root / name
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()
    root.mkdir(parents=True, exist_ok=True)


def _page_count(pdf: bytes) -> int:
    with PDFIUM_LOCK:
        document = pdfium.PdfDocument(pdf)
        try:
            return len(document)
        finally:
            document.close()
