"""PDF through pypdfium2: words from the text layer, OCR for pages that have none."""

from __future__ import annotations

import math
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from fieldwise._pdfium import PDFIUM_LOCK
from fieldwise.service.engines.parsing.attachments import invoice_xml
from fieldwise.service.engines.parsing.errors import (
    CorruptDocument,
    LimitExceeded,
    PageLimitExceeded,
)
from fieldwise.service.engines.parsing.layout import group_ocr_lines, group_text_lines
from fieldwise.service.engines.parsing.limits import Deadline, ParseLimits
from fieldwise.service.engines.parsing.model import Page, Word
from fieldwise.service.engines.parsing.ocr import OcrEngine
from fieldwise.service.engines.parsing.pdf_words import raw_text_words

__all__ = ["parse_pdf"]

_PASSWORD_ERROR = 4
_OCR_SCALE = 2.0  # 144 dpi: enough for 9 pt text, still fast on two cores


def _open(data: bytes) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == _PASSWORD_ERROR:
            raise CorruptDocument("the PDF is encrypted (password protected)") from exc
        raise CorruptDocument(f"the PDF is corrupt or truncated ({exc})") from exc


def _text_words(page: Any, height: float) -> list[Word]:
    """The words of a raw ``FPDF_PAGE``, through a text page closed here."""
    textpage = pdfium_c.FPDFText_LoadPage(page)
    if not textpage:
        raise pdfium.PdfiumError("Failed to load text page.")
    try:
        return raw_text_words(textpage, height)
    finally:
        pdfium_c.FPDFText_ClosePage(textpage)


def render_scale(width: float, height: float, max_pixels: int) -> float:
    """The OCR scale, or less when a ``width`` x ``height`` pt page would exceed ``max_pixels``
    rendered at it (a tiny PDF can declare a 14400 x 14400 pt page: 3.3 GB as a bitmap)."""
    area = max(width, 1.0) * max(height, 1.0)
    if area * _OCR_SCALE**2 <= max_pixels:
        return _OCR_SCALE
    return math.sqrt(max_pixels / area) * 0.999  # the rounded-up bitmap stays under the bound


def parse_pdf(
    data: bytes, *, limits: ParseLimits, ocr: OcrEngine | None, deadline: Deadline
) -> tuple[tuple[Page, ...], str | None]:
    """Pages of a PDF, and the invoice XML it embeds (None without one: see
    :mod:`.attachments`); pages without a text layer go through ``ocr`` when it is given.

    A page is rendered for OCR at most at ``limits.max_page_pixels`` (downscaled beyond), and
    the document's rendered pixels together at most ``limits.max_document_pixels`` (refused
    with :class:`LimitExceeded` beyond, before rendering the page that would pass it).
    PDFium is entered only under :data:`PDFIUM_LOCK`; OCR of a rendered page runs outside it,
    so parallel workers still overlap on scans. ``deadline`` is checked before each page (a
    page's OCR takes up to a few seconds): past it the parse stops there.
    """
    max_pages = limits.max_pages
    with PDFIUM_LOCK:
        document = _open(data)
    try:
        with PDFIUM_LOCK:
            count = len(document)
        if count > max_pages:
            raise PageLimitExceeded(count, max_pages)
        if count == 0:
            raise CorruptDocument("the PDF has no pages")
        with PDFIUM_LOCK:
            xml = invoice_xml(document)
        pages: list[Page] = []
        budget = _PixelBudget(limits)
        for index in range(count):
            deadline.check(f"{index} of {count} pages read")
            width, height, words, image, scale = _read_page(
                document, index, budget=budget if ocr is not None else None
            )
            if image is not None and ocr is not None:
                lines = group_ocr_lines(ocr.recognize(image, scale=scale))
                pages.append(Page(index + 1, width, height, lines, "ocr"))
            else:  # text-layer boxes are floats from pdfium
                pages.append(Page(index + 1, width, height, group_text_lines(words), "text"))
        return tuple(pages), xml
    finally:
        with PDFIUM_LOCK:
            document.close()


class _PixelBudget:
    """The pixels a document's pages may still be rendered to, and each page's scale."""

    def __init__(self, limits: ParseLimits) -> None:
        self.limits = limits
        self.spent = 0

    def scale_for(self, width: float, height: float) -> float:
        """The scale to render a page at; raises :class:`LimitExceeded` past the total."""
        scale = render_scale(width, height, self.limits.max_page_pixels)
        pixels = math.ceil(width * scale) * math.ceil(height * scale)
        if self.spent + pixels > self.limits.max_document_pixels:
            raise LimitExceeded(
                "pixels to render this PDF's pages for OCR, at least",
                self.spent + pixels,
                self.limits.max_document_pixels,
                "FIELDWISE_MAX_DOCUMENT_PIXELS",
            )
        self.spent += pixels
        return scale


def _read_page(
    document: pdfium.PdfDocument, index: int, *, budget: _PixelBudget | None
) -> tuple[float, float, list[Word], Image.Image | None, float]:
    """Size and text-layer words of one page, and, when it has no text layer and ``budget``
    is given, its rendering and the scale it was rendered at.

    The text is read through raw pdfium handles, closed here: pypdfium2's page and text page
    objects (a finalizer and parent bookkeeping each) cost about 15 us a page, 2 ms of the
    B3 benchmark's 160. A page to render is loaded again as pypdfium2's page (scans only: OCR
    takes a thousand times longer). The document has no form environment, so pypdfium2's page would
    load exactly this way (``FPDF_LoadPage``, no ``FORM_OnAfterLoadPage``).
    """
    with PDFIUM_LOCK:
        page = pdfium_c.FPDF_LoadPage(document.raw, index)
        if not page:
            raise pdfium.PdfiumError("Failed to load page.")
        try:
            width = pdfium_c.FPDF_GetPageWidthF(page)
            height = pdfium_c.FPDF_GetPageHeightF(page)
            words = _text_words(page, height)
        finally:
            pdfium_c.FPDF_ClosePage(page)
        image = None
        scale = _OCR_SCALE
        if not words and budget is not None:
            scale = budget.scale_for(width, height)
            image = _render(document, index, scale)
        return width, height, words, image, scale


def _render(document: pdfium.PdfDocument, index: int, scale: float) -> Image.Image:
    """Page ``index`` rendered at ``scale``, its pixels owned (copied before the bitmap
    closes)."""
    page = document[index]
    try:
        bitmap = page.render(scale=scale)
        try:
            image: Image.Image = bitmap.to_pil().copy()
            return image
        finally:
            bitmap.close()
    finally:
        page.close()
