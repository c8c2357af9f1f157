"""A corpus of broken files yields only our 4xx errors, never a library exception."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from fieldwise._errors import FieldwiseError
from fieldwise.service.engines.parsing import (
    CorruptDocument,
    PageLimitExceeded,
    ParseError,
    UnsupportedFormat,
    parse_document,
)
from tests.service.engines.parsing.conftest import make_invoice_pdf


def _png(width: int, height: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), "white").save(buf, "PNG")
    return buf.getvalue()


def _encrypted_pdf() -> bytes:
    from reportlab.lib import pdfencrypt
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, encrypt=pdfencrypt.StandardEncryption("secret", canPrint=0))
    c.drawString(72, 720, "Top secret")
    c.save()
    return buf.getvalue()


_RANDOM = random.Random(7).randbytes(4096)
_PDF = make_invoice_pdf()

CORPUS = {
    "truncated pdf": (_PDF[: len(_PDF) // 3], "a.pdf", CorruptDocument),
    "zero bytes": (b"", "a.pdf", CorruptDocument),
    "random bytes named .pdf": (_RANDOM, "a.pdf", CorruptDocument),
    "random bytes unnamed": (b"\x00\x01" + _RANDOM, None, UnsupportedFormat),
    "1x1 png": (_png(1, 1), "dot.png", CorruptDocument),
    "truncated png": (_png(40, 40)[:50], "a.png", CorruptDocument),
    "broken docx": (b"PK\x03\x04" + _RANDOM[:200], "a.docx", CorruptDocument),
    "zip that is no docx": (None, "a.zip", UnsupportedFormat),
    "gif": (b"GIF89a" + _RANDOM[:100], "a.gif", UnsupportedFormat),
}


def _zip() -> bytes:
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        archive.writestr("hello.txt", "hi")
    return buf.getvalue()


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_broken_file_gives_a_parse_error(name: str) -> None:
    data, filename, expected = CORPUS[name]
    with pytest.raises(ParseError) as info:
        parse_document(data if data is not None else _zip(), filename=filename, ocr=False)
    assert type(info.value) is expected
    assert isinstance(info.value, FieldwiseError)
    assert info.value.http_status == (415 if expected is UnsupportedFormat else 422)


def test_encrypted_pdf_says_so() -> None:
    with pytest.raises(CorruptDocument, match="encrypted"):
        parse_document(_encrypted_pdf(), ocr=False)


def test_page_limit() -> None:
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf)
    for _ in range(501):
        c.showPage()
    c.save()
    with pytest.raises(PageLimitExceeded, match="501 pages; the limit is 500") as info:
        parse_document(buf.getvalue(), ocr=False)
    assert info.value.http_status == 422
    with pytest.raises(PageLimitExceeded):
        parse_document(make_invoice_pdf(pages=3), max_pages=2, ocr=False)
