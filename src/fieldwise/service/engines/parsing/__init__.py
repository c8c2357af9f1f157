"""Parse documents into pages of words and lines with boxes, plain text and Markdown.

Entry point: :func:`parse_document`. Errors (all :class:`ParseError`, each with ``http_status``):
:class:`UnsupportedFormat` (415), :class:`CorruptDocument` (422), :class:`PageLimitExceeded` (422;
the default limit is :data:`DEFAULT_MAX_PAGES` = 500 pages), :class:`LimitExceeded` (422; the
other bounds of :class:`ParseLimits`), :class:`TimeBudgetExceeded` (413; past
``ParseLimits.max_seconds``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fieldwise._lazy import lazy_names
from fieldwise.service.engines.parsing.errors import (
    CorruptDocument,
    LimitExceeded,
    PageLimitExceeded,
    ParseError,
    TimeBudgetExceeded,
    UnsupportedFormat,
)
from fieldwise.service.engines.parsing.layout import split_cells
from fieldwise.service.engines.parsing.limits import ParseLimits
from fieldwise.service.engines.parsing.model import Box, Line, Page, ParsedDocument, Word
from fieldwise.service.engines.parsing.sniff import FORMATS, sniff_format

if TYPE_CHECKING:
    from fieldwise.service.engines.parsing.api import DEFAULT_MAX_PAGES, parse_document
    from fieldwise.service.engines.parsing.ocr import OcrEngine, get_ocr_engine

__all__ = [
    "DEFAULT_MAX_PAGES",
    "FORMATS",
    "Box",
    "CorruptDocument",
    "LimitExceeded",
    "Line",
    "OcrEngine",
    "Page",
    "PageLimitExceeded",
    "ParseError",
    "ParseLimits",
    "ParsedDocument",
    "TimeBudgetExceeded",
    "UnsupportedFormat",
    "Word",
    "get_ocr_engine",
    "parse_document",
    "sniff_format",
    "split_cells",
]

#: Names loaded on first use: the parsers and the OCR engine import PDF, image and OCR
#: libraries, which a service that parses nothing (an embedded ``fieldwise sync``) must not pay
#: at start-up. The document model and the errors above are cheap and load with the package.
_HOMES = {
    "DEFAULT_MAX_PAGES": f"{__name__}.api",
    "OcrEngine": f"{__name__}.ocr",
    "get_ocr_engine": f"{__name__}.ocr",
    "parse_document": f"{__name__}.api",
}


__getattr__ = lazy_names(__name__, _HOMES)
