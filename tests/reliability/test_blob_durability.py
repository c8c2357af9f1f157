"""Blobs are written without an fsync per request; a crash still never leaves a row on bad bytes.

What keeps it safe is order, not fsync: every byte is written and renamed into place before the
row that names it commits (``fieldwise.service.store.blobs``). Two tests hold both halves:

- the service is killed (SIGKILL) the moment ``POST /parse/file`` has answered, three times
  over on one data dir: every file row then names bytes that are all there (size and sha256),
  and after a restart each parse run reads back the very output it answered;
- bytes cut short behind a committed row (what a power loss can leave of unsynced pages) read
  as missing, never as data: the parse run shows no output rather than half of one, the parse
  cache counts it as a miss and parses again, and that parse puts whole bytes back.
"""

from __future__ import annotations

import hashlib
import json
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select

from fieldwise.service.resources.files.tables import files
from fieldwise.service.store.blobs import BlobCorrupt, BlobStore
from tests.conftest import TEST_KEY, ServiceFactory
from tests.service.jobs.test_crash_recovery import _serve

_GUARD = 300.0  # seconds: only guards against a hang on a loaded machine
_ROOT = Path(__file__).resolve().parents[2]
_PDFS = sorted((_ROOT / "datasets" / "invoices" / "documents").glob("invoice-00[1-3].pdf"))


def _rows(data_dir: Path) -> list[Any]:
    engine = create_engine(f"sqlite:///{data_dir / 'fieldwise.db'}")
    with engine.connect() as conn:
        rows = list(conn.execute(select(files.c.id, files.c.sha256, files.c.size)))
    engine.dispose()
    return rows


def _parse(http: httpx.Client, data: bytes) -> dict[str, Any]:
    answer = http.post("/parse/file", files={"file": ("doc.pdf", data, "application/pdf")})
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_a_kill_right_after_the_answer_leaves_every_row_on_whole_bytes(tmp_path: Path) -> None:
    data_dir, log = tmp_path / "svc", tmp_path / "service.log"
    answered: list[tuple[bytes, dict[str, Any]]] = []
    for pdf in _PDFS:
        data = pdf.read_bytes()
        with _serve(data_dir, log) as (proc, base_url):
            with httpx.Client(
                base_url=base_url, headers={"x-api-key": TEST_KEY}, timeout=_GUARD
            ) as http:
                body = _parse(http, data)
            proc.send_signal(signal.SIGKILL)  # at once: nothing after the answer may matter
            proc.wait()
        answered.append((data, body))
    blobs = BlobStore(data_dir / "blobs")
    rows = _rows(data_dir)
    assert len(rows) >= 3 * len(_PDFS)  # input, parsed form and output of each parse
    for row in rows:
        stored = blobs.path(row.sha256).read_bytes()
        assert (len(stored), hashlib.sha256(stored).hexdigest()) == (row.size, row.sha256)
    with (
        _serve(data_dir, log) as (_proc, base_url),
        httpx.Client(base_url=base_url, headers={"x-api-key": TEST_KEY}, timeout=_GUARD) as http,
    ):
        for data, body in answered:
            again = http.get(f"/parse/runs/{body['id']}").json()
            assert again["output"] == body["output"]
            assert again["output"]
            content = http.get(f"/files/{body['input_file_id']}/content")
            assert content.content == data


def _cut_short(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def test_bytes_cut_short_read_as_missing_never_as_data(
    start_service: ServiceFactory, tmp_path: Path
) -> None:
    service = start_service()
    data_dir = tmp_path / "service"  # start_service's data dir
    data = _PDFS[0].read_bytes()
    with httpx.Client(
        base_url=service.base_url, headers={"x-api-key": TEST_KEY}, timeout=_GUARD
    ) as http:
        first = _parse(http, data)
        output_sha = hashlib.sha256(first["output"].encode()).hexdigest()
        listed = http.get("/files", params={"limit": 100}).json()["data"]
        parsed = [f for f in listed if f["purpose"] == "parsed"]
        assert len(parsed) == 1
        blobs = BlobStore(data_dir / "blobs")
        cached = next(r.sha256 for r in _rows(data_dir) if r.id == parsed[0]["id"])
        for sha in (output_sha, cached):
            _cut_short(blobs.path(sha))
            with pytest.raises(BlobCorrupt):
                blobs.read(sha)
            with pytest.raises(FileNotFoundError):  # what every caller handles as missing
                blobs.read(sha)

        shown = http.get(f"/parse/runs/{first['id']}").json()
        assert shown["status"] == "succeeded"
        assert shown["output"] is None

        second = _parse(http, data)  # the cut-short parsed form is a miss: parsed again
        assert second["output"] == first["output"]
        assert json.loads(blobs.read(cached))["format"] == "pdf"  # whole bytes put back
        healed = http.get(f"/parse/runs/{first['id']}").json()
        assert healed["output"] == first["output"]
