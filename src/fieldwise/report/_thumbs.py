"""Links to the documents and small first-page thumbnails, made when the report is written.

Thumbnails are JPEG data URIs at most :data:`WIDTH` px wide, only for the documents the report
shows with a picture (the regression and improvement lists), so the file stays small.
"""

from __future__ import annotations

import base64
import io
import os
import urllib.parse
from collections.abc import Iterable
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, UnidentifiedImageError

from fieldwise._pdfium import PDFIUM_LOCK

__all__ = ["MAX_THUMBNAILS", "WIDTH", "document_links", "thumbnail", "thumbnails"]

WIDTH = 120
MAX_THUMBNAILS = 60
_IMAGES = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp", ".bmp", ".gif"}


def document_links(root: Path, names: Iterable[str], report_dir: Path) -> dict[str, str]:
    """document name -> URL relative to ``report_dir`` (percent-encoded, "/" separated), for
    the names that are files under ``root``. Relative, not ``file:///home/…``: an absolute
    path names this machine and is dead once the report is an artifact opened elsewhere."""
    base = report_dir.resolve()
    links = {}
    for name in names:
        path = (root / name).resolve()
        if path.is_file():
            relative = Path(os.path.relpath(path, base)).as_posix()
            links[name] = urllib.parse.quote(relative)
    return links


def _first_page(path: Path) -> Image.Image | None:
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        with PDFIUM_LOCK:
            try:
                pdf = pdfium.PdfDocument(str(path))
            except (pdfium.PdfiumError, OSError):
                return None
            try:
                if len(pdf) == 0:
                    return None
                page = pdf[0]
                scale = WIDTH * 2 / max(page.get_width(), 1.0)
                image: Image.Image = page.render(scale=scale).to_pil().convert("RGB")
                return image
            finally:
                pdf.close()
    if suffix in _IMAGES:
        try:
            with Image.open(path) as image:
                image.seek(0)
                return image.convert("RGB")
        except (OSError, UnidentifiedImageError):
            return None
    return None


def thumbnail(path: Path) -> str | None:
    """A JPEG data URI of the first page of ``path`` (PDF or image), or None when it cannot
    be read."""
    image = _first_page(path)
    if image is None:
        return None
    image.thumbnail((WIDTH, WIDTH * 2))
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=60, optimize=True)
    return "data:image/jpeg;base64," + base64.b64encode(out.getvalue()).decode("ascii")


def thumbnails(root: Path, names: Iterable[str], limit: int = MAX_THUMBNAILS) -> dict[str, str]:
    """document name -> thumbnail data URI, for the first ``limit`` distinct names readable."""
    out: dict[str, str] = {}
    for name in dict.fromkeys(names):
        if len(out) >= limit:
            break
        uri = thumbnail(root / name)
        if uri is not None:
            out[name] = uri
    return out
