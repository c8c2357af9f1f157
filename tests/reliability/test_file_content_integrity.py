"""``GET /files/{id}/content`` serves only the bytes a file's row names.

Blobs are written without an fsync (``fieldwise.service.store.blobs``), so a power loss can
leave a row whose bytes were cut short on disk. The content route streams from disk rather than
reading into memory, so it verifies the sha256 in chunks first: damaged bytes answer 404 like
bytes that are gone, never a download that looks whole.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import httpx

from fieldwise.service.store.blobs import BlobStore
from tests.conftest import TEST_KEY, ServiceFactory

# larger than one read chunk of the check, so the verification spans several chunks
_DATA = bytes(range(256)) * 5000


def test_bytes_cut_short_or_gone_are_not_served(
    start_service: ServiceFactory, tmp_path: Path
) -> None:
    service = start_service()
    blobs = BlobStore(tmp_path / "service" / "blobs")  # start_service's data dir
    with httpx.Client(
        base_url=service.base_url, headers={"x-api-key": TEST_KEY}, timeout=60
    ) as http:
        ids = []
        for name in ("whole.bin", "cut.bin", "gone.bin"):
            data = name.encode() + _DATA
            answer = http.post(
                "/files/upload", files={"file": (name, data, "application/octet-stream")}
            )
            assert answer.status_code == 201, answer.text
            ids.append((answer.json()["id"], hashlib.sha256(data).hexdigest(), data))

        (whole, _, data), (cut, cut_sha, _), (gone, gone_sha, _) = ids
        path = blobs.path(cut_sha)
        path.write_bytes(path.read_bytes()[: path.stat().st_size - 1])
        blobs.path(gone_sha).unlink()

        served = http.get(f"/files/{whole}/content")
        assert served.status_code == 200
        assert served.content == data
        for file_id in (cut, gone):
            answer = http.get(f"/files/{file_id}/content")
            assert answer.status_code == 404, answer.text
            assert "no longer stored" in answer.json()["error"]["message"]
