"""Hostile markup built on the fly: DOCX files whose parts inflate past the bounds at a modest
ratio, and deeply nested or very large markup.

``docx_with_body(chunk, times)`` is a valid DOCX (python-docx's own template) whose
``word/document.xml`` body is ``chunk`` written ``times`` times; :func:`hostile_docx` one whose
body inflates to about ``inflated`` bytes at about 60 times its compressed size (a random
token in each paragraph keeps deflate from doing better), the shape of the 3.2 MB file that
inflated 61 times to 192 MB and took the service to 3.5 GB.
"""

from __future__ import annotations

import io
import random
import zipfile

__all__ = ["docx_with_body", "hostile_docx", "paragraphs"]

MIB = 1024 * 1024


def paragraphs(size: int, *, pad: int = 36, seed: int = 41) -> bytes:
    """About ``size`` bytes of ``<w:p>`` paragraphs, each of ``pad`` repeated words and a
    random token: deflate takes them to about 1/60 (pad 36), 1/38 (20), 1/25 (10)."""
    rng = random.Random(seed)
    filler = "lorem ipsum " * pad
    parts: list[bytes] = []
    written = 0
    while written < size:
        part = f"<w:p><w:r><w:t>{filler}{rng.getrandbits(32):08x}</w:t></w:r></w:p>".encode()
        parts.append(part)
        written += len(part)
    return b"".join(parts)


def docx_with_body(chunk: bytes, times: int = 1) -> bytes:
    """A DOCX whose body is ``chunk`` ``times`` times, then the template's section."""
    import docx

    plain = io.BytesIO()
    docx.Document().save(plain)
    source = zipfile.ZipFile(io.BytesIO(plain.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in source.infolist():
            if info.filename != "word/document.xml":
                archive.writestr(info, source.read(info))
                continue
            head, _, tail = source.read(info).partition(b"<w:sectPr")
            with archive.open("word/document.xml", "w", force_zip64=True) as part:
                part.write(head)
                for _ in range(times):
                    part.write(chunk)
                part.write(b"<w:sectPr" + tail)
    return out.getvalue()


def hostile_docx(inflated: int) -> bytes:
    """A valid DOCX of about ``inflated`` bytes of XML, inflating about 60 times."""
    return docx_with_body(paragraphs(MIB), max(1, inflated // MIB))
