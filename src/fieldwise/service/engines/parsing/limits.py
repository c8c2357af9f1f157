"""The bounds the readers enforce, so that a small hostile file cannot take the service's time
or memory: pages, CSV columns and cells, pixels rendered for OCR, the markup of DOCX and HTML
(bytes once inflated, inflation ratio, elements, nesting), and an optional time budget.

Every bound is a field of :class:`ParseLimits` with a safe default; the service fills it from
its settings (``FIELDWISE_MAX_*``). A document past a bound is refused with
:class:`~fieldwise.service.engines.parsing.errors.LimitExceeded`, which names the bound and the
setting, except a PDF page that is too large to render at the OCR scale: it is rendered
downscaled to ``max_page_pixels`` instead. Past ``max_seconds`` a parse stops with
:class:`~fieldwise.service.engines.parsing.errors.TimeBudgetExceeded` (see :class:`Deadline`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from fieldwise.service.engines.parsing.errors import TimeBudgetExceeded

__all__ = ["DEFAULT_MAX_PAGES", "Deadline", "ParseLimits"]

DEFAULT_MAX_PAGES = 500


@dataclass(frozen=True)
class ParseLimits:
    """``max_pages`` per document; ``max_csv_columns`` per CSV row and ``max_csv_cells`` for
    the whole table as laid out (rows x widest row); ``max_page_pixels`` for one page rendered
    for OCR (larger pages are downscaled to it) and ``max_document_pixels`` for all of a
    document's rendered pages together.

    Markup (DOCX parts, HTML): ``max_markup_bytes`` of it (a DOCX's parts as inflated, an HTML
    document as sent), a DOCX inflating at most ``max_inflation_ratio`` times its size (each
    bound refuses alone), and at most ``max_markup_elements`` elements nested at most
    ``max_markup_depth`` deep, counted by a streaming pass before any tree is built.

    ``max_words``: the words a DOCX, HTML, text or CSV document lays out on the text grid.

    ``max_seconds``: the time a parse may take (None: no budget), checked between pages and
    between parts, so the work stops within a page of it."""

    max_pages: int = DEFAULT_MAX_PAGES
    max_csv_columns: int = 10_000
    max_csv_cells: int = 2_000_000
    # OCR's memory grows with the rendered area (the detector works on up to 2000 px a side):
    # an A4 or Letter page at the OCR scale (144 dpi) is about 2 Mpx and the whole service
    # then peaks near 700 MB; at 4 Mpx it passes 1 GB. Larger pages are rendered at less dpi.
    max_page_pixels: int = 2_500_000
    # About as many pixels as the page limit of A4 pages at 144 dpi: bounds OCR work.
    max_document_pixels: int = 1_000_000_000
    # python-docx and BeautifulSoup build the whole tree in memory, a few hundred bytes per
    # element and more per word laid out: a 500-page report is under 10 MB of XML and 300k
    # elements; 192 MB of XML once took the service from 182 MB to 3.5 GB.
    max_markup_bytes: int = 32 * 1024 * 1024
    # Office files inflate 3-20 times (text compresses about 10:1); a bomb, by design, far more.
    max_inflation_ratio: int = 100
    max_markup_elements: int = 500_000
    # libxml2's own default bound for a tree (deeper is refused as "excessive depth").
    max_markup_depth: int = 256
    # Words laid out on the text grid (DOCX, HTML, text, CSV): ~450 bytes each with its box,
    # so 500k words (a thousand a page over the page limit) stay near 225 MB.
    max_words: int = 500_000
    max_seconds: float | None = None


class Deadline:
    """When a parse's time budget runs out; :meth:`check` raises past it (no budget: never).

    The readers call :meth:`check` between units of work (a page, a TIFF frame, a thousand
    elements of markup), so an abandoned parse stops instead of running on unseen."""

    __slots__ = ("_at", "seconds")

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self._at = None if seconds is None else time.monotonic() + seconds

    def check(self, done: str) -> None:
        """Raise :class:`TimeBudgetExceeded` if the budget is spent; ``done`` says how far the
        parse got (for the message)."""
        if self._at is not None and self.seconds is not None and time.monotonic() > self._at:
            raise TimeBudgetExceeded(self.seconds, done)
