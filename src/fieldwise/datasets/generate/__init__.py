"""fieldwise.datasets.generate: realistic synthetic datasets (invoices, receipts).

PDFs are drawn with reportlab in several layouts (label words and positions, fonts, date and
number formats, currencies, 1–15 line items, some multi-page); a share are "scans" (rasterized
with pypdfium2, rotated, noisy, no text layer). Ground truth is exact. Same seed, same bytes.
"""

from __future__ import annotations

from fieldwise.datasets.generate._generate import (
    KINDS,
    GeneratedDataset,
    GeneratedDocument,
    Kind,
    generate_dataset,
)

__all__ = ["KINDS", "GeneratedDataset", "GeneratedDocument", "Kind", "generate_dataset"]
