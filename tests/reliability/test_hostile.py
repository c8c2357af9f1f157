"""Hostile input: each refused with a clear 4xx and the error body, the service still up,
nothing stored."""

from __future__ import annotations

import contextlib
import io
import os
import socket
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from fieldwise.client import Client
from fieldwise.service import RunningService
from fieldwise.service.app import app_state
from fieldwise.service.resources.files.tables import files
from tests.conftest import ServiceFactory
from tests.reliability.conftest import CONFIG, invoice, make_processor, raw
from tests.service.engines.parsing.bombs import MIB, docx_with_body


def _refused(response: httpx.Response, *statuses: int) -> dict[str, Any]:
    assert response.status_code in statuses, (response.status_code, response.text[:300])
    error: dict[str, Any] = response.json()["error"]
    assert error["message"]
    assert error["request_id"] == response.headers["x-request-id"]
    return error


def _file_count(service: RunningService) -> int:
    engine = app_state(service.app).engine  # type: ignore[arg-type]
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(files)).scalar_one())


def _blobs(service: RunningService) -> list[Path]:
    root = app_state(service.app).blobs.root  # type: ignore[arg-type]
    return sorted(p for p in Path(root).rglob("*") if p.is_file())


def _still_up(service: RunningService) -> None:
    with raw(service.base_url) as http:
        assert http.get("/processors").status_code == 200


@pytest.fixture
def guarded(start_service: ServiceFactory, tmp_path: Path) -> RunningService:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "ok.txt").write_bytes(invoice(1))
    (tmp_path / "secret.txt").write_text("top secret\n")
    os.symlink(tmp_path / "secret.txt", allowed / "link.txt")
    return start_service(allowed_file_roots=(allowed,), max_upload_mb=1)


def test_input_path_traversal_and_outside_roots_are_refused(
    guarded: RunningService, tmp_path: Path
) -> None:
    with Client(guarded.base_url, guarded.api_key, max_retries=0) as client:
        processor_id, _ = make_processor(client, "inv", CONFIG)
    before = (_file_count(guarded), _blobs(guarded))
    allowed = tmp_path / "allowed"
    hostile = [
        f"file://{allowed}/../secret.txt",
        f"file://{allowed}/%2e%2e/secret.txt",
        f"file://{allowed}/link.txt",  # a symlink that leaves the root
        f"file://{tmp_path}/secret.txt",
        "file:///etc/passwd",
        "file://evil.example/etc/passwd",
        "file:relative/path.txt",
        f"file://{allowed}/ok.txt%00.pdf",
        "/etc/passwd",
        "../../etc/passwd",
        "C:\\Windows\\win.ini",
        "http://169.254.169.254/latest/meta-data/",
        f"{guarded.base_url}/../../etc/passwd",
        "file_../../etc",
        "",
    ]
    with raw(guarded.base_url) as http:
        for path in hostile:
            response = http.post(f"/processors/{processor_id}/runs", json={"input_path": path})
            error = _refused(response, 422)
            assert error["param"] == "input_path", path
            assert "top secret" not in response.text
            response = http.post("/extract/path", json={"input_path": path})
            _refused(response, 422)
        assert http.get(f"/processors/{processor_id}/runs").json()["data"] == []
    assert (_file_count(guarded), _blobs(guarded)) == before
    _still_up(guarded)


def test_upload_filenames_cannot_point_anywhere(guarded: RunningService, tmp_path: Path) -> None:
    names = ["../../escape.txt", "/etc/passwd", "..\\..\\win.ini", "..", "a/../../b.txt", "\x00"]
    with raw(guarded.base_url) as http:
        for name in names:
            response = http.post("/files/upload", files={"file": (name, b"hello")})
            assert response.status_code == 201, response.text
            stored = response.json()["filename"]
            assert "/" not in stored
            assert "\\" not in stored
            assert stored not in ("..", ".")
    assert not (tmp_path / "escape.txt").exists()
    assert not Path("/b.txt").exists()
    data_dir = app_state(guarded.app).settings.data_dir  # type: ignore[arg-type]
    for blob in _blobs(guarded):
        assert blob.resolve().is_relative_to(Path(data_dir).resolve())


def test_oversized_uploads_and_json_are_refused_without_storing(guarded: RunningService) -> None:
    before = (_file_count(guarded), _blobs(guarded))
    big = b"x" * (3 * 1024 * 1024)
    with raw(guarded.base_url, timeout=30) as http:
        _refused(http.post("/files/upload", files={"file": ("big.txt", big)}), 413)
        _refused(http.post("/parse/file", files={"file": ("big.txt", big)}), 413)

        def chunks() -> Any:  # no Content-Length: counted as it streams
            yield b'--zz\r\ncontent-disposition: form-data; name="file"; filename="s.txt"\r\n\r\n'
            for _ in range(48):
                yield b"y" * 65536
            yield b"\r\n--zz--\r\n"

        response = http.post(
            "/files/upload",
            content=chunks(),
            headers={"content-type": "multipart/form-data; boundary=zz"},
        )
        _refused(response, 413)
        huge = b'{"name": "' + b"a" * (2 * 1024 * 1024) + b'"}'
        response = http.post(
            "/processors", content=huge, headers={"content-type": "application/json"}
        )
        _refused(response, 413, 422)
    assert (_file_count(guarded), _blobs(guarded)) == before
    _still_up(guarded)


def test_deep_or_malformed_json_and_invalid_utf8(guarded: RunningService) -> None:
    with Client(guarded.base_url, guarded.api_key, max_retries=0) as client:
        file_id = client.upload_file(invoice(1), filename="a.txt").id
        eval_set = client.create_evaluation_set("s")
    json_headers = {"content-type": "application/json"}
    deep = b'{"name": "p", "description": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    deep_truth = {"file_id": file_id, "ground_truth": {}}
    node: dict[str, Any] = deep_truth["ground_truth"]
    for _ in range(200):
        node["k"] = {}
        node = node["k"]
    with raw(guarded.base_url) as http:
        _refused(http.post("/processors", content=deep, headers=json_headers), 400, 413, 422)
        _refused(http.post(f"/evaluation-sets/{eval_set.id}/items", json=deep_truth), 422)
        for body in (b"\xff\xfe{", b'{"name": "\xc3\x28"}', b'{"name": "p"', b"\x00" * 10):
            _refused(http.post("/processors", content=body, headers=json_headers), 400, 422)
        latin = '{"name": "caf\xe9"}'.encode("latin-1")
        _refused(http.post("/processors", content=latin, headers=json_headers), 400, 422)
        _refused(http.post("/processors", content=b"name=p"), 400, 415, 422)
        bad_meta = {"file": ("a.txt", b"hi"), "metadata": (None, b"\xff\xfe")}
        _refused(http.post("/files/upload", files=bad_meta), 422)
        assert http.get("/processors").json()["data"] == []
    _still_up(guarded)


def _zip_bomb_docx() -> bytes:
    """A valid DOCX whose paragraphs inflate from about 300 KB to 300 MB."""
    return docx_with_body(b"<w:p><w:r><w:t>" + b"A" * MIB + b"</w:t></w:r></w:p>", 300)


def _many_pages_pdf(pages: int) -> bytes:
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    kids = " ".join(f"{3 + k} 0 R" for k in range(pages))
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode())
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>"] * pages
    return _pdf(objects)


def _recursive_pdf() -> bytes:
    # The page tree points back at itself: a parser that follows Kids naively never ends.
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
            b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>",
        ]
    )


def _pdf(objects: list[bytes]) -> bytes:
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    )
    return out.getvalue()


def test_hostile_documents_are_refused_quickly(start_service: ServiceFactory) -> None:
    service = start_service()
    bomb = _zip_bomb_docx()
    assert len(bomb) < 1024 * 1024
    documents = {
        "bomb.docx": (bomb, "zip bomb"),
        "pages.pdf": (_many_pages_pdf(3000), "3000 pages; the limit is 500"),
        "loop.pdf": (_recursive_pdf(), "could not be read"),
    }
    # The reasons show each was refused by its check (the archive's declared size, the page
    # count, the cycle), before any inflating or page walking; no wall-clock limit is asserted.
    with raw(service.base_url, timeout=60) as http:
        for name, (content, reason) in documents.items():
            response = http.post("/parse/file", files={"file": (name, content)})
            assert reason in _refused(response, 422)["message"], name
        assert http.get("/files").json()["data"] == []  # refused parses keep no input
    _still_up(service)


def test_ssrf_targets_for_webhooks_are_refused(service: RunningService) -> None:
    targets = [
        "http://example.com/hook",  # plain http
        "https://127.0.0.1/hook",
        "https://localhost/hook",  # a name that resolves to loopback
        "https://10.0.0.5/hook",
        "https://192.168.1.1/hook",
        "https://172.16.0.1/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/hook",
        "https://[::ffff:127.0.0.1]/hook",
        "https://0.0.0.0/hook",
        "https://2130706433/hook",  # 127.0.0.1 as one integer
        "https://127.1/hook",
        "https://0x7f000001/hook",
        "file:///etc/passwd",
        "gopher://127.0.0.1:25/",
        "https://user:pw@127.0.0.1/hook",
    ]
    with raw(service.base_url) as http:
        for url in targets:
            response = http.post(
                "/webhooks/endpoints", json={"url": url, "events": ["processor.run.completed"]}
            )
            error = _refused(response, 422)
            assert error["param"] == "url", url
            response = http.post(
                "/parse/file/async", files={"file": ("a.txt", b"hi")}, data={"webhook_url": url}
            )
            _refused(response, 422)
        assert http.get("/webhooks/endpoints").json()["data"] == []
    _still_up(service)


def test_a_trickled_body_is_cut_off_and_others_are_served(start_service: ServiceFactory) -> None:
    service = start_service(body_read_timeout=1.0)
    host, port = service.base_url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)))
    head = (
        "POST /processors HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
        f"x-api-key: {service.api_key}\r\ncontent-length: 1000\r\n\r\n"
    )
    sock.sendall(head.encode() + b'{"name": ')
    started = time.monotonic()
    _still_up(service)  # the stalled request blocks nobody
    sock.settimeout(0.3)
    answer = b""
    # Trickling goes on until the server answers; the 120 s only guards against a hang (the
    # 408 itself shows the whole-body deadline cut it off, since the body never stalls).
    while time.monotonic() - started < 120 and b"\r\n\r\n" not in answer:
        # A byte now and then: only a whole-body deadline ends it. A failed send means the
        # server has answered and closed; what it sent is still to be read.
        with contextlib.suppress(OSError):
            sock.send(b" ")
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            continue
        except ConnectionResetError:
            break
        if not chunk:
            break
        answer += chunk
    sock.close()
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    _still_up(service)
    with raw(service.base_url) as http:
        assert http.get("/processors").json()["data"] == []


def _read_until(sock: socket.socket, *, end: bytes | None = None) -> bytes:
    """Everything the server sends until ``end`` is seen, or until it closes the connection.

    A reset after the server has answered is how a refusing server closes when it leaves
    part of the request unread (the kernel resets instead of a clean close); the bytes it
    sent before stay readable, so a reset only ends the reading here. Whether the answer
    was the refusal is for the caller to check on what was read.
    """
    received = b""
    while end is None or end not in received:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        received += chunk
    return received


def test_huge_request_heads_are_refused_and_idle_connections_block_nobody(
    service: RunningService,
) -> None:
    host, port = service.base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        # The server may refuse and close before it has read the whole head.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(b"GET /processors HTTP/1.1\r\nhost: x\r\nx-junk: " + b"a" * 1_000_000)
        # Refused by uvicorn itself (before the app, so in its own plain-text form) and closed:
        # the whole answer is read, whether or not the send above completed.
        answer = _read_until(sock)
    assert answer.startswith(b"HTTP/1.1 400 Bad Request"), answer[:200]
    assert answer.endswith(b"Invalid HTTP request received."), answer[-200:]
    with socket.create_connection((host, int(port)), timeout=30) as idle:
        _still_up(service)  # a connection that sends nothing blocks nobody
        idle.sendall(
            f"GET /processors HTTP/1.1\r\nhost: x\r\nx-api-key: {service.api_key}\r\n\r\n".encode()
        )
        assert _read_until(idle, end=b"\r\n\r\n").startswith(b"HTTP/1.1 200")
