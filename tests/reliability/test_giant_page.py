"""A tiny PDF whose one page is 14400 x 14400 pt (200 inches a side) once drove the service to
11 GB rendering it for OCR at full scale. Pages are now rendered for OCR within a pixel bound
(downscaled beyond it) and a document's pages within a total (refused beyond it)."""

from __future__ import annotations

from pathlib import Path

from fieldwise.service import RunningService
from tests.conftest import ServiceFactory
from tests.reliability.conftest import raw
from tests.reliability.test_hostile import _pdf
from tests.service.jobs.test_crash_recovery import _serve

GIANT = 14400  # pt: the largest page size PDF allows
GIB = 1024**3


def _giant_pdf(pages: int) -> bytes:
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents %d 0 R >>"
    content_at = 3 + pages
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    kids = " ".join(f"{3 + k} 0 R" for k in range(pages))
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode())
    objects += [page % (GIANT, GIANT, content_at)] * pages
    drawing = b"0 0 0 rg 7200 7200 2000 500 re f"  # something to see; no text layer
    objects.append(b"<< /Length %d >>\nstream\n" % len(drawing) + drawing + b"\nendstream")
    return _pdf(objects)


def _peak_rss(pid: int) -> int:
    """The process's peak resident memory so far (VmHWM), in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM in /proc status")


def test_a_giant_page_is_rendered_downscaled_within_bounded_memory(tmp_path: Path) -> None:
    document = _giant_pdf(1)
    assert len(document) < 2048
    served = _serve(tmp_path / "svc", tmp_path / "service.log")
    with served as (proc, base_url), raw(base_url, timeout=300) as http:
        response = http.post(
            "/parse/file", files={"file": ("giant.pdf", document)}, data={"format": "json"}
        )
        peak = _peak_rss(proc.pid)
        assert http.get("/processors").status_code == 200  # still up
    # The whole service process (models loaded for OCR included) stayed under 1 GB; at full
    # scale the page alone is a 28800 x 28800 bitmap, 3.3 GB before any copy.
    print(f"\npeak RSS of the service while parsing a {GIANT} pt page: {peak / 2**20:.0f} MiB")
    assert peak < GIB, f"{peak / 2**20:.0f} MiB"
    assert response.status_code == 201, response.text[:300]
    parsed = response.json()
    assert parsed["page_count"] == 1
    (page,) = parsed["output"]["pages"]
    assert (page["width"], page["height"]) == (GIANT, GIANT)  # boxes stay in page units


def test_pixels_over_a_document_are_bounded_with_a_clear_error(
    start_service: ServiceFactory,
) -> None:
    # Each giant page is downscaled to 1 Mpx; three of them pass the 2.5 Mpx total.
    service: RunningService = start_service(
        max_page_pixels=1_000_000, max_document_pixels=2_500_000
    )
    with raw(service.base_url, timeout=300) as http:
        response = http.post("/parse/file", files={"file": ("three.pdf", _giant_pdf(3))})
        assert response.status_code == 422, response.text[:300]
        message = response.json()["error"]["message"]
        assert "the limit is 2500000 (setting FIELDWISE_MAX_DOCUMENT_PIXELS)" in message
        two = http.post("/parse/file", files={"file": ("two.pdf", _giant_pdf(2))})
        assert two.status_code == 201, two.text[:300]
        assert two.json()["page_count"] == 2
