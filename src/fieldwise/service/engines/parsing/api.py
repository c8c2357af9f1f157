"""``parse_document``: sniff, dispatch to a format reader, translate every failure once."""

from __future__ import annotations

from fieldwise.service.engines.parsing.errors import CorruptDocument, ParseError, UnsupportedFormat
from fieldwise.service.engines.parsing.limits import DEFAULT_MAX_PAGES, Deadline, ParseLimits
from fieldwise.service.engines.parsing.markdown import page_markdown
from fieldwise.service.engines.parsing.model import Page, ParsedDocument
from fieldwise.service.engines.parsing.ocr import OcrEngine, get_ocr_engine
from fieldwise.service.engines.parsing.safety import safe_document
from fieldwise.service.engines.parsing.sniff import sniff_format

__all__ = ["DEFAULT_MAX_PAGES", "ParseLimits", "parse_document"]


def _read(fmt: str, data: bytes, limits: ParseLimits, engine: OcrEngine | None) -> ParsedDocument:
    max_pages = limits.max_pages
    deadline = Deadline(limits.max_seconds)
    markdown: str | None = None
    invoice_xml: str | None = None
    pages: tuple[Page, ...]
    if fmt == "pdf":
        from fieldwise.service.engines.parsing.pdf import parse_pdf

        pages, invoice_xml = parse_pdf(data, limits=limits, ocr=engine, deadline=deadline)
    elif fmt in ("png", "jpeg", "tiff"):
        from fieldwise.service.engines.parsing.images import parse_image

        pages = parse_image(data, max_pages=max_pages, ocr=engine, deadline=deadline)
    elif fmt == "docx":
        from fieldwise.service.engines.parsing.office import parse_docx

        pages, markdown = parse_docx(data, limits, deadline)
    elif fmt == "html":
        from fieldwise.service.engines.parsing.html import parse_html

        pages, markdown = parse_html(data, limits, deadline)
    elif fmt == "csv":
        from fieldwise.service.engines.parsing.text import parse_csv

        pages, markdown = parse_csv(data, limits)
    else:
        from fieldwise.service.engines.parsing.text import parse_text

        pages, markdown = parse_text(data, limits)
    if len(pages) > max_pages:
        from fieldwise.service.engines.parsing.errors import PageLimitExceeded

        raise PageLimitExceeded(len(pages), max_pages)
    if markdown is None:
        markdown = "\n\n".join(m for m in (page_markdown(p) for p in pages) if m)
    # the one exit of every reader: no character may fail a run later (see safety.py)
    doc = ParsedDocument(format=fmt, pages=pages, markdown=markdown, invoice_xml=invoice_xml)
    return safe_document(doc)


def parse_document(
    data: bytes,
    *,
    filename: str | None = None,
    content_type: str | None = None,
    max_pages: int = DEFAULT_MAX_PAGES,
    ocr: bool = True,
    ocr_engine: OcrEngine | None = None,
    limits: ParseLimits | None = None,
) -> ParsedDocument:
    """Parse PDF, PNG/JPEG/TIFF, DOCX, HTML, plain text or CSV into a :class:`ParsedDocument`.

    The format is sniffed from the bytes; ``filename`` and ``content_type`` only decide when
    the bytes carry no signature. PDF pages without a text layer and images go through OCR
    (``ocr_engine``, default the process-wide :func:`get_ocr_engine`) unless ``ocr`` is false.
    Documents with more than ``max_pages`` pages (default 500) are refused; ``limits``, when
    given, sets every bound (its ``max_pages`` then replaces the argument): CSV columns and
    cells, the pixels a PDF's pages may be rendered to for OCR, the markup of DOCX and HTML,
    and the time the parse may take (``max_seconds``, none by default).

    Raises only :class:`ParseError` subclasses: :class:`UnsupportedFormat` (HTTP 415),
    :class:`CorruptDocument` (empty, truncated, damaged or encrypted; 422),
    :class:`PageLimitExceeded` (422), :class:`LimitExceeded` (422) and
    :class:`TimeBudgetExceeded` (413).
    """
    if not data:
        raise CorruptDocument("the document is empty (0 bytes)")
    fmt = sniff_format(data, filename, content_type)
    if fmt is None:
        described = filename or content_type or "the document"
        raise UnsupportedFormat(
            f"unsupported format for {described}: expected PDF, PNG, JPEG, TIFF, DOCX, HTML, "
            "text or CSV"
        )
    engine = (ocr_engine or get_ocr_engine()) if ocr else None
    try:
        return _read(fmt, data, limits or ParseLimits(max_pages=max_pages), engine)
    except ParseError:
        raise
    except Exception as exc:  # the one place where library errors become ours
        raise CorruptDocument(
            f"the {fmt.upper()} document could not be read ({type(exc).__name__}: {exc})"
        ) from exc
