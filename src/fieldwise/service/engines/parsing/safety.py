"""Text safety at the parser's edge: every string leaving the parser encodes as UTF-8.

Readers can produce code points that no encoder accepts: a PDF text layer that maps a glyph
to half of a surrogate pair, an HTML entity such as ``&#xD800;``, a UTF-16 file cut in the
middle of a pair. One such character used to fail a whole run (``UnicodeEncodeError ...
surrogates not allowed`` when the output was stored). :func:`safe_document` replaces each with
U+FFFD, the Unicode replacement character, and leaves every other character as it is.
"""

from __future__ import annotations

import re

from fieldwise.service.engines.parsing.model import Line, Page, ParsedDocument, Word

__all__ = ["REPLACEMENT", "join_utf16", "safe_document", "safe_text"]

REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")


def join_utf16(high: int, low: int) -> str | None:
    """The code point of a UTF-16 surrogate pair, or None when (high, low) is not one."""
    if 0xD800 <= high <= 0xDBFF and 0xDC00 <= low <= 0xDFFF:
        return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    return None


def safe_text(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (the rest unchanged)."""
    return _SURROGATE.sub(REPLACEMENT, text)


def _is_safe(text: str) -> bool:
    return _SURROGATE.search(text) is None


def _line(line: Line) -> Line:
    words = tuple(Word(safe_text(w.text), w.box, w.confidence) for w in line.words)
    return Line(words, line.box, safe_text(line.text))


def safe_document(doc: ParsedDocument) -> ParsedDocument:
    """``doc`` itself when all its text is safe (the common case: one scan), else a cleaned copy."""
    # one search over every line's text joined (a lone surrogate stays one code point in the
    # join) instead of a search per line
    lines = "".join([line.text for page in doc.pages for line in page.lines])
    xml = doc.invoice_xml
    if _is_safe(doc.markdown) and _is_safe(lines) and (xml is None or _is_safe(xml)):
        return doc
    pages = tuple(
        Page(p.number, p.width, p.height, tuple(_line(line) for line in p.lines), p.source)
        for p in doc.pages
    )
    return ParsedDocument(
        doc.format, pages, safe_text(doc.markdown), None if xml is None else safe_text(xml)
    )
