"""The raw pypdfium2 text loop of B3: what a user who wants a PDF's text writes.

One module for both places that run it, so that they run the same loop: ``parse.py``'s
in-process baseline and the bare HTTP endpoint of ``_bare_parse.py`` (the floor beside the
HTTP row). It imports pypdfium2 alone.
"""

from __future__ import annotations

import pypdfium2 as pdfium


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
