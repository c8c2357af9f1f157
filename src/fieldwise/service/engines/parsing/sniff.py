"""Find a document's real format: magic bytes first, then the name or declared type."""

from __future__ import annotations

import io
import zipfile

__all__ = ["FORMATS", "sniff_format"]

FORMATS = ("csv", "docx", "html", "jpeg", "pdf", "png", "text", "tiff")

_EXTENSIONS = {
    "pdf": "pdf",
    "png": "png",
    "jpg": "jpeg",
    "jpeg": "jpeg",
    "tif": "tiff",
    "tiff": "tiff",
    "docx": "docx",
    "htm": "html",
    "html": "html",
    "xhtml": "html",
    "txt": "text",
    "text": "text",
    "md": "text",
    "csv": "csv",
    "tsv": "csv",
}
_CONTENT_TYPES = {
    "application/pdf": "pdf",
    "image/png": "png",
    "image/jpeg": "jpeg",
    "image/tiff": "tiff",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "text/html": "html",
    "application/xhtml+xml": "html",
    "text/plain": "text",
    "text/markdown": "text",
    "text/csv": "csv",
    "text/tab-separated-values": "csv",
}


def _magic(data: bytes) -> str | None:
    if b"%PDF-" in data[:1024]:
        return "pdf"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data.startswith((b"II*\x00", b"MM\x00*")):
        return "tiff"
    if data.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                names = set(archive.namelist())
        except (zipfile.BadZipFile, OSError, ValueError):
            return None  # a damaged archive: let the name decide (a .docx is then corrupt)
        return "docx" if "word/document.xml" in names else "zip"
    head = data[:2048].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith((b"<!doctype html", b"<html")) or b"<body" in head:
        return "html"
    return None


def _looks_like_text(data: bytes) -> bool:
    sample = data[:8192]
    if b"\x00" in sample and not sample.startswith((b"\xff\xfe", b"\xfe\xff")):
        return False
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as exc:
        # a multi-byte character cut at the sample's end is still text
        return exc.start >= len(sample) - 3
    return True


def sniff_format(data: bytes, filename: str | None, content_type: str | None) -> str | None:
    """One of :data:`FORMATS`, or None when nothing we read matches.

    Magic bytes win over the name; a name or declared type decides only when the bytes carry no
    signature (random bytes named ``x.pdf`` are then read as a, corrupt, PDF). Text without a
    hint is plain text.
    """
    found = _magic(data)
    if found == "zip":
        return None
    if found is not None:
        return found
    hint = None
    if filename and "." in filename:
        hint = _EXTENSIONS.get(filename.rsplit(".", 1)[1].lower())
    if hint is None and content_type:
        hint = _CONTENT_TYPES.get(content_type.split(";")[0].strip().lower())
    if hint is not None:
        return hint
    return "text" if _looks_like_text(data) else None
