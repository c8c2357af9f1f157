"""The PDF readers of B3: the raw pypdfium2 text loop, and the references beside it.

One module for every place that runs them, so that they run the same code:

- :func:`page_texts`, the raw loop: what a user who wants a PDF's text writes (``parse.py``'s
  in-process baseline and the bare HTTP endpoint of ``_bare_parse.py``). It imports
  pypdfium2 alone.
- :func:`pdfium_part`, pdfium's own share of any reader: each page and its text page loaded,
  nothing read from them. No reader on pdfium can be faster than this.
- :func:`least_words`, the least a pure-Python reader of words *with boxes* does: the page's
  text in one call, one regular-expression pass over it, and per word the loose boxes of its
  first and last character (two calls into pdfium, through ctypes without argument
  conversion, as fieldwise's reader calls it) and one tuple. No check that a word is one
  piece, no lines, no Markdown: a floor for what fieldwise's parser does, not a parser. It
  repeats the few lines of the parser's fast path (``pdf_words``: the token pattern, the
  bare call) rather than importing its private names, so that a change to the parser under
  measure cannot move its floor unseen; ``tests/benchmarks/test_pdf_text.py`` holds the two
  to the same words and boxes.
- :func:`plumber_words`, what a user who wants words with boxes picks: pdfplumber's
  ``extract_words()`` per page (the same words as :func:`least_words` on B3's files; no lines
  and no Markdown either).
"""

from __future__ import annotations

import ctypes
import io
import re
import struct

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

# a word: a run of characters that are neither whitespace nor NUL (pdfium's generated spaces
# and line breaks are whitespace), as fieldwise's reader cuts the text before it checks
_WORD = re.compile(r"[^\s\x00]+")
_RECT = struct.Struct("4f")  # FS_RECTF: left, top, right, bottom as C floats
# FPDFText_GetLooseCharBox called with its arguments as they are: ctypes' conversion against
# pypdfium2's declared argument types costs more than the call itself
_LOOSE = ctypes.PYFUNCTYPE(ctypes.c_int)(
    ctypes.cast(pdfium_c.FPDFText_GetLooseCharBox, ctypes.c_void_p).value
)


def page_texts(data: bytes) -> list[str]:
    """Each page's text: open, then ``get_textpage()`` and ``get_text_range()`` per page."""
    document = pdfium.PdfDocument(data)
    try:
        texts = []
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            texts.append(textpage.get_text_range())
            textpage.close()
            page.close()
        return texts
    finally:
        document.close()


def pdfium_part(data: bytes) -> int:
    """Open, then load each page and its text page and close them: the pages."""
    document = pdfium.PdfDocument(data)
    try:
        count = len(document)
        for index in range(count):
            page = pdfium_c.FPDF_LoadPage(document.raw, index)
            pdfium_c.FPDFText_ClosePage(pdfium_c.FPDFText_LoadPage(page))
            pdfium_c.FPDF_ClosePage(page)
        return count
    finally:
        document.close()


def least_words(data: bytes) -> list[list[tuple[str, tuple[float, float, float, float]]]]:
    """Each page's words with their boxes (top-left origin), the least way: see the module."""
    document = pdfium.PdfDocument(data)
    rect = pdfium_c.FS_RECTF()
    slot = ctypes.c_void_p(ctypes.addressof(rect))
    unpack = _RECT.unpack_from
    try:
        pages = []
        for index in range(len(document)):
            page = pdfium_c.FPDF_LoadPage(document.raw, index)
            height = pdfium_c.FPDF_GetPageHeightF(page)
            textpage = pdfium_c.FPDFText_LoadPage(page)
            count = pdfium_c.FPDFText_CountChars(textpage)
            buffer = (ctypes.c_ushort * (count + 1))()
            pdfium_c.FPDFText_GetText(textpage, 0, count, buffer)
            text = ctypes.string_at(buffer, 2 * count).decode("utf-16-le", errors="replace")
            handle = ctypes.c_void_p(ctypes.cast(textpage, ctypes.c_void_p).value)
            words = []
            for match in _WORD.finditer(text):
                start, stop = match.span()
                _LOOSE(handle, start, slot)
                left, top, right, bottom = unpack(rect)
                if stop - start > 1:
                    _LOOSE(handle, stop - 1, slot)
                    right = unpack(rect)[2]
                words.append((match.group(), (left, height - top, right, height - bottom)))
            pages.append(words)
            pdfium_c.FPDFText_ClosePage(textpage)
            pdfium_c.FPDF_ClosePage(page)
        return pages
    finally:
        document.close()


def plumber_words(data: bytes) -> list[list[dict[str, object]]]:
    """Each page's words as pdfplumber's ``extract_words()`` gives them (its defaults)."""
    import pdfplumber  # only this side pays its import

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [page.extract_words() for page in pdf.pages]
