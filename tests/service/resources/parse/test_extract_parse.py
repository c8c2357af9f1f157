"""``POST /extract/path`` and the parse routes over HTTP, including a broken-file corpus."""

from __future__ import annotations

import io
import json
from pathlib import Path

import httpx
import pytest
from PIL import Image
from sqlalchemy import create_engine, select

from fieldwise._errors import NotFoundError, UnprocessableError
from fieldwise.client import Client, ops
from fieldwise.service import RunningService
from fieldwise.service.events.outbox import events
from tests.service.resources.runs.conftest import invoice, make_processor, wait_for


def test_extract_path_with_and_without_processor(client: Client, service: RunningService) -> None:
    file_id = client.upload_file(invoice(42), filename="a.txt").id
    generic = client.call(ops.extract_path(file_id))
    assert generic.status == "succeeded"
    assert generic.processor_id is None
    assert generic.output is not None
    assert generic.output["value"] == {"invoice_no": "INV-0042", "total": "42.50 EUR"}
    pid = make_processor(client)
    run = client.call(ops.extract_path(f"{service.base_url}/files/{file_id}", processor_id=pid))
    assert run.status == "succeeded"
    assert run.output is not None
    assert run.output["value"] == {"invoice_number": "INV-0042", "total": 42.5}
    assert client.call(ops.get_run(pid, run.id)) == run
    assert client.call(ops.get_extract_run(generic.id)).output == generic.output
    with pytest.raises(UnprocessableError):
        client.call(ops.extract_path(file_id, version_id="ver_x"))
    with pytest.raises(UnprocessableError):
        client.call(ops.extract_path("nonsense"))
    with pytest.raises(NotFoundError):
        client.call(ops.extract_path(file_id, processor_id="nope"))


def test_extract_path_answers_202_past_the_wait(client: Client, service: RunningService) -> None:
    file_id = client.upload_file(invoice(1), filename="a.txt").id
    response = httpx.post(
        service.base_url + "/extract/path",
        params={"wait_seconds": 0},
        json={"input_path": file_id},
        headers={"x-api-key": service.api_key},
        timeout=60,
    )
    assert response.status_code in (200, 202)
    body = response.json()
    if response.status_code == 202:
        assert body["status"] in ("queued", "in_progress")
    final = wait_for(
        lambda: (r := client.call(ops.get_extract_run(body["id"]))).status == "succeeded" and r
    )
    assert final.output["value"]["invoice_no"] == "INV-0001"


def test_parse_file_formats_and_delete(client: Client, tmp_path: Path) -> None:
    doc = b"<html><body><h1>Report</h1><p>Invoice No: A-1</p></body></html>"
    markdown = client.call(ops.parse_file(doc, filename="r.html"))
    assert markdown.id.startswith("prun_")
    assert markdown.status == "succeeded"
    assert "# Report" in markdown.output
    assert markdown.page_count == 1
    text = client.call(ops.parse_file(doc, filename="r.html", format="text"))
    assert "Invoice No: A-1" in text.output
    assert "#" not in text.output
    as_json = client.call(ops.parse_file(doc, filename="r.html", format="json"))
    assert as_json.output["pages"][0]["lines"][0]["words"][0]["box"]
    assert client.call(ops.get_parse_run(as_json.id)).output == as_json.output
    assert as_json.output_uri is not None
    stored = client.call(ops.get_file_content(as_json.output_uri.rsplit("/", 1)[1]))
    assert json.loads(stored) == as_json.output
    blobs = tmp_path / "service" / "blobs"
    before = sum(1 for p in blobs.glob("??/??/*"))
    client.call(ops.delete_parse_run(as_json.id))
    with pytest.raises(NotFoundError):
        client.call(ops.get_parse_run(as_json.id))
    # The output blob went; input and parse cache are shared with the other two runs.
    assert sum(1 for p in blobs.glob("??/??/*")) == before - 1
    for run in (markdown, text):
        client.call(ops.delete_parse_run(run.id))
    assert sum(1 for p in blobs.glob("??/??/*")) == 0


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), "white").save(out, format="PNG")
    return out.getvalue()


BROKEN = {
    "zero.pdf": b"",
    "truncated.pdf": b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R",
    "random.pdf": bytes(range(256)) * 7,
    "random.bin": b"\x00\x01\x02\xff\xfe" * 100,
    "encrypted.zip": b"PK\x03\x04" + b"\x00" * 60,
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_files_get_4xx_never_500(service: RunningService, name: str) -> None:
    response = httpx.post(
        service.base_url + "/parse/file",
        files={"file": (name, BROKEN[name])},
        headers={"x-api-key": service.api_key},
        timeout=60,
    )
    assert response.status_code in (415, 422), response.text
    assert response.json()["error"]["param"] == "file"
    alive = httpx.get(
        service.base_url + "/files", headers={"x-api-key": service.api_key}, timeout=60
    )
    assert alive.status_code == 200


def test_tiny_image_and_bad_requests(client: Client, service: RunningService) -> None:
    tiny = httpx.post(
        service.base_url + "/parse/file",
        files={"file": ("dot.png", _png(1, 1))},
        headers={"x-api-key": service.api_key},
        timeout=60,
    )
    assert tiny.status_code in (201, 422)
    headers = {"x-api-key": service.api_key}
    no_file = httpx.post(
        service.base_url + "/parse/file",
        data={"format": "markdown"},
        headers=headers,
        files={"other": ("a", b"x")},
        timeout=60,
    )
    assert no_file.status_code == 422
    as_json = httpx.post(
        service.base_url + "/parse/file", json={"file": "x"}, headers=headers, timeout=60
    )
    assert as_json.status_code == 415
    bad_format = httpx.post(
        service.base_url + "/parse/file",
        files={"file": ("a.txt", b"hello")},
        data={"format": "pdf"},
        headers=headers,
        timeout=60,
    )
    assert bad_format.status_code == 422
    assert bad_format.json()["error"]["param"] == "format"


def test_parse_async_notifies_through_the_outbox(
    client: Client, service: RunningService, tmp_path: Path
) -> None:
    with pytest.raises(UnprocessableError):
        client.call(ops.parse_file_async(b"x", filename="a.txt", webhook_url="ftp://x/y"))
    queued = client.call(
        ops.parse_file_async(
            invoice(3), filename="a.txt", webhook_url="https://hooks.example.com/parse"
        )
    )
    assert queued.status in ("queued", "in_progress", "succeeded")
    done = wait_for(
        lambda: (r := client.call(ops.get_parse_run(queued.id))).status == "succeeded" and r
    )
    assert "Invoice No: INV-0003" in done.output
    broken = client.call(ops.parse_file_async(b"%PDF-1.4 nope", filename="b.pdf"))
    failed = wait_for(
        lambda: (r := client.call(ops.get_parse_run(broken.id))).status == "failed" and r
    )
    assert failed.failure_reason == "corrupt_document"
    engine = create_engine(f"sqlite:///{tmp_path / 'service' / 'fieldwise.db'}")
    with engine.connect() as conn:
        rows = list(conn.execute(select(events).where(events.c.type.like("parse.%"))))
    engine.dispose()
    by_run = {r.data["parse_run_id"]: r for r in rows}
    assert by_run[queued.id].type == "parse.run.completed"
    assert by_run[queued.id].data["output_uri"] == done.output_uri
    assert by_run[queued.id].target_url == "https://hooks.example.com/parse"
    assert by_run[broken.id].type == "parse.run.failed"
    assert by_run[broken.id].data["failure_reason"] == "corrupt_document"
