"""A hand-written PDF whose text layer maps glyphs to chosen UTF-16 text (a ToUnicode CMap).

``unicode_pdf({"A": "D83DDE00"})`` prints its lines in Helvetica; every ``A`` on the page then
reads as U+1F600 (an emoji: a surrogate pair in UTF-16). Mapping to ``"D800"`` gives a lone
surrogate, which no UTF-8 encoder accepts. Written byte by byte so the CMap is exactly this one.
"""

from __future__ import annotations

from fieldwise.datasets.generate._scan import pdf_file

LINES = ("Invoice No: INV-7 A", "Total: 12.50 EUR", "Note: A B")


def _cmap(mapping: dict[str, str]) -> bytes:
    pairs = "\n".join(f"<{ord(ch):02X}> <{utf16}>" for ch, utf16 in sorted(mapping.items()))
    # every other byte maps to itself, so the rest of the text layer reads as printed
    plain = "\n".join(
        f"<{code:02X}> <{code:04X}>" for code in range(0x20, 0x7F) if chr(code) not in mapping
    )
    body = (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Test-UCS def /CMapType 2 def\n"
        "1 begincodespacerange <00> <FF> endcodespacerange\n"
        f"{len(mapping)} beginbfchar\n{pairs}\nendbfchar\n"
        f"{0x7F - 0x20 - len(mapping)} beginbfchar\n{plain}\nendbfchar\n"
        "endcmap CMapName currentdict /CMap defineresource pop end end\n"
    )
    return body.encode("ascii")


def unicode_pdf(mapping: dict[str, str], lines: tuple[str, ...] = LINES) -> bytes:
    """A one-page PDF printing ``lines``; ``mapping``: character -> UTF-16 hex it reads as."""
    text = "BT /F1 12 Tf 72 760 Td 16 TL\n"
    text += "".join(f"({line}) Tj T*\n" for line in lines) + "ET\n"
    stream = text.encode("ascii")
    cmap = _cmap(mapping)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"endstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(cmap) + cmap + b"endstream",
    ]
    return pdf_file(objects)
