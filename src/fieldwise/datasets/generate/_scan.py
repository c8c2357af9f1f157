"""Turn a text PDF into a "scanned" one: rasterized, slightly rotated, noisy, no text layer."""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
import pypdfium2 as pdfium
from PIL import Image

from fieldwise._pdfium import PDFIUM_LOCK

__all__ = ["ScanSettings", "scan_to_pdf", "scan_to_png"]


@dataclass(frozen=True)
class ScanSettings:
    """How a page is degraded: resolution, rotation range (degrees), noise and JPEG quality."""

    dpi: int = 200
    max_rotation: float = 1.5
    noise_sigma: float = 7.0
    speckles: float = 0.0004
    jpeg_quality: int = 55


def scan_to_pdf(
    pdf: bytes, rng: np.random.Generator, settings: ScanSettings | None = None
) -> bytes:
    """An image-only PDF (one JPEG per page, same page size) that only OCR can read."""
    settings = settings or ScanSettings()
    pages = []
    for image, size in _scanned_pages(pdf, rng, settings):
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=settings.jpeg_quality, optimize=True)
        pages.append((buffer.getvalue(), image.size, size))
    return _image_pdf(pages)


def scan_to_png(
    pdf: bytes, rng: np.random.Generator, settings: ScanSettings | None = None
) -> bytes:
    """The first page as a noisy grayscale PNG (a phone photo of a receipt, say)."""
    settings = settings or ScanSettings()
    image, _ = next(iter(_scanned_pages(pdf, rng, settings)))
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


def _scanned_pages(
    pdf: bytes, rng: np.random.Generator, settings: ScanSettings
) -> list[tuple[Image.Image, tuple[float, float]]]:
    rendered: list[tuple[Image.Image, tuple[float, float]]] = []
    with PDFIUM_LOCK:
        document = pdfium.PdfDocument(pdf)
        try:
            for index in range(len(document)):
                page = document[index]
                bitmap = page.render(scale=settings.dpi / 72, grayscale=True)
                image = bitmap.to_pil().convert("L")
                rendered.append((image, (page.get_width(), page.get_height())))
                bitmap.close()
                page.close()
        finally:
            document.close()
    return [(_degrade(image, rng, settings), size) for image, size in rendered]


def _degrade(image: Image.Image, rng: np.random.Generator, settings: ScanSettings) -> Image.Image:
    angle = float(rng.uniform(-settings.max_rotation, settings.max_rotation))
    rotated = image.rotate(angle, resample=Image.Resampling.BICUBIC, fillcolor=255)
    pixels = np.asarray(rotated, dtype=np.float32)
    # Scanner paper is never pure white and toner never pure black.
    pixels = pixels * 0.86 + 20.0 + float(rng.uniform(-6, 6))
    pixels += rng.normal(0.0, settings.noise_sigma, pixels.shape).astype(np.float32)
    specks = rng.random(pixels.shape) < settings.speckles
    pixels[specks] = rng.uniform(30, 120, int(specks.sum())).astype(np.float32)
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), mode="L")


def _image_pdf(pages: list[tuple[bytes, tuple[int, int], tuple[float, float]]]) -> bytes:
    """A minimal PDF with one full-page DCT image per page: no dates, no ids, no text."""
    objects: list[bytes] = [b"", b""]  # catalog and page tree, filled in last
    kids = []
    for jpeg, (pixels_w, pixels_h), (width, height) in pages:
        image_ref = len(objects) + 1
        objects.append(
            b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
            b"/BitsPerComponent 8 /Filter /DCTDecode /Length %d >>\nstream\n"
            % (pixels_w, pixels_h, len(jpeg))
            + jpeg
            + b"\nendstream"
        )
        content = b"q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q" % (width, height)
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content))
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] "
            b"/Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>"
            % (width, height, image_ref, image_ref + 1)
        )
        kids.append(b"%d 0 R" % len(objects))
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), len(kids))
    return pdf_file(objects)


def pdf_file(objects: list[bytes]) -> bytes:
    """A PDF file from its object bodies (object 1 is the catalog): header, objects, xref."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)
