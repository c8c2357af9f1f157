"""The bounds the readers enforce, so that a small hostile file cannot take the service's time
or memory: pages, CSV columns and cells, and pixels rendered for OCR.

Every bound is a field of :class:`ParseLimits` with a safe default; the service fills it from
its settings (``FIELDWISE_MAX_*``). A document past a bound is refused with
:class:`~fieldwise.service.engines.parsing.errors.LimitExceeded`, which names the bound and the
setting, except a PDF page that is too large to render at the OCR scale: it is rendered
downscaled to ``max_page_pixels`` instead.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_MAX_PAGES", "ParseLimits"]

DEFAULT_MAX_PAGES = 500


@dataclass(frozen=True)
class ParseLimits:
    """``max_pages`` per document; ``max_csv_columns`` per CSV row and ``max_csv_cells`` for
    the whole table as laid out (rows x widest row); ``max_page_pixels`` for one page rendered
    for OCR (larger pages are downscaled to it) and ``max_document_pixels`` for all of a
    document's rendered pages together."""

    max_pages: int = DEFAULT_MAX_PAGES
    max_csv_columns: int = 10_000
    max_csv_cells: int = 2_000_000
    # OCR's memory grows with the rendered area (the detector works on up to 2000 px a side):
    # an A4 or Letter page at the OCR scale (144 dpi) is about 2 Mpx and the whole service
    # then peaks near 700 MB; at 4 Mpx it passes 1 GB. Larger pages are rendered at less dpi.
    max_page_pixels: int = 2_500_000
    # About as many pixels as the page limit of A4 pages at 144 dpi: bounds OCR work.
    max_document_pixels: int = 1_000_000_000
