"""Document links and first-page thumbnails: real PDFs and images, small JPEG data URIs."""

from __future__ import annotations

import base64
import io
from pathlib import Path

from PIL import Image

from fieldwise.datasets.generate import generate_dataset
from fieldwise.report._thumbs import WIDTH, document_links, thumbnail, thumbnails


def _decoded(uri: str) -> Image.Image:
    assert uri.startswith("data:image/jpeg;base64,")
    return Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1])))


def test_pdf_and_image_thumbnails_are_small_jpegs(tmp_path: Path) -> None:
    generate_dataset("invoices", count=1, seed=3, out_dir=tmp_path / "ds", scanned_share=0.0)
    pdf = next((tmp_path / "ds" / "documents").glob("*.pdf"))
    Image.new("RGB", (1200, 1600), "white").save(tmp_path / "scan.png")
    for path in (pdf, tmp_path / "scan.png"):
        uri = thumbnail(path)
        assert uri is not None
        image = _decoded(uri)
        assert 0 < image.width <= WIDTH
        assert image.height > image.width  # a portrait page stays portrait
        assert len(uri) < 16_000


def test_unreadable_documents_get_no_thumbnail_and_missing_ones_no_link(tmp_path: Path) -> None:
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.7 not really")
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    assert thumbnail(tmp_path / "broken.pdf") is None
    assert thumbnail(tmp_path / "notes.txt") is None
    (tmp_path / "out").mkdir()
    links = document_links(tmp_path, ["broken.pdf", "gone.pdf"], tmp_path / "out")
    assert links == {"broken.pdf": "../broken.pdf"}
    assert thumbnails(tmp_path, ["broken.pdf", "notes.txt", "gone.pdf"]) == {}
