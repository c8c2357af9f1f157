"""Files over real HTTP: upload (both metadata forms), list, content, delete, limits."""

from __future__ import annotations

import httpx
import pytest

from fieldwise._errors import NotFoundError, UnprocessableError
from fieldwise.client import Client, ops
from fieldwise.service import RunningService
from fieldwise.service.app import app_state
from tests.conftest import ServiceFactory


def _post(service: RunningService, **kwargs: object) -> httpx.Response:
    return httpx.post(
        service.base_url + "/files/upload",
        headers={"x-api-key": service.api_key},
        **kwargs,
        timeout=60,
    )  # type: ignore[arg-type]


def test_upload_with_text_metadata_and_download(client: Client) -> None:
    uploaded = client.upload_file(
        b"%PDF-1.4 hello", filename="../../etc/a.pdf", metadata={"source": "test"}
    )
    assert uploaded.id.startswith("file_")
    assert uploaded.filename == "a.pdf"
    assert uploaded.size == 14
    assert uploaded.metadata == {"source": "test"}
    assert client.call(ops.get_file_content(uploaded.id)) == b"%PDF-1.4 hello"
    assert client.call(ops.get_file(uploaded.id)) == uploaded


def test_upload_with_json_typed_metadata_part(service: RunningService) -> None:
    files = {
        "file": ("a.txt", b"abc", "text/plain"),
        "metadata": ("meta.json", b'{"k": [1, 2]}', "application/json"),
    }
    response = _post(service, files=files)
    assert response.status_code == 201, response.text
    assert response.json()["metadata"] == {"k": [1, 2]}


@pytest.mark.parametrize("metadata", ["[1, 2]", "not json", "3", "null"])
def test_metadata_must_be_a_json_object(
    service: RunningService, client: Client, metadata: str
) -> None:
    response = _post(service, files={"file": ("a.txt", b"abc")}, data={"metadata": metadata})
    assert response.status_code == 422
    assert response.json()["error"]["param"] == "metadata"
    assert list(client.list_files()) == []


def test_multipart_without_file_is_422(service: RunningService, client: Client) -> None:
    response = _post(service, files={"other": ("a.txt", b"abc")})
    assert response.status_code == 422
    assert response.json()["error"]["param"] == "file"
    json_body = httpx.post(
        service.base_url + "/files/upload",
        json={"file": "x"},
        headers={"x-api-key": service.api_key},
        timeout=60,
    )
    assert json_body.status_code == 415
    assert list(client.list_files()) == []


def test_oversized_upload_is_413_and_nothing_is_stored(start_service: ServiceFactory) -> None:
    service = start_service(max_upload_mb=0.01)  # about 10 kB
    blobs = app_state(service.app).blobs  # type: ignore[arg-type]
    response = _post(service, files={"file": ("big.bin", b"x" * 50_000)})
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"

    def chunks() -> object:  # a valid multipart head, then a file part that never ends
        yield (
            b'--zz\r\nContent-Disposition: form-data; name="file"; filename="s.bin"\r\n'
            b"Content-Type: application/octet-stream\r\n\r\n"
        )
        for _ in range(4000):
            yield b"y" * 1024

    streamed = httpx.post(
        service.base_url + "/files/upload",
        content=chunks(),  # type: ignore[arg-type]
        headers={"x-api-key": service.api_key, "content-type": "multipart/form-data; boundary=zz"},
        timeout=60,
    )
    assert streamed.status_code == 413
    with Client(service.base_url, service.api_key) as c:
        assert list(c.list_files()) == []
        assert c.upload_file(b"small", filename="ok.txt").size == 5
    assert blobs.count() == 1


def test_list_pages_with_cursor(client: Client) -> None:
    ids = [client.upload_file(f"doc {i}".encode(), filename=f"{i}.txt").id for i in range(5)]
    first = client.call(ops.list_files(limit=2))
    assert [f.id for f in first.data] == ids[:2]
    assert first.next_cursor
    second = client.call(ops.list_files(limit=2, cursor=first.next_cursor))
    assert [f.id for f in second.data] == ids[2:4]
    assert [f.id for f in client.list_files()] == ids
    with pytest.raises(UnprocessableError) as err:
        client.call(ops.list_files(cursor="bogus"))
    assert err.value.param == "cursor"


def test_delete_removes_blob_and_later_gets_are_404(
    service: RunningService, client: Client
) -> None:
    blobs = app_state(service.app).blobs  # type: ignore[arg-type]
    kept = client.upload_file(b"shared bytes", filename="a.txt")
    twin = client.upload_file(b"shared bytes", filename="b.txt")
    doomed = client.upload_file(b"only me", filename="c.txt")
    path = blobs.path(doomed.sha256)
    assert path.is_file()

    assert client.delete_file(doomed.id).deleted
    assert not path.exists()
    with pytest.raises(NotFoundError):
        client.call(ops.get_file(doomed.id))
    with pytest.raises(NotFoundError):
        client.call(ops.get_file_content(doomed.id))
    with pytest.raises(NotFoundError):
        client.delete_file(doomed.id)

    client.delete_file(twin.id)  # the blob is still used by `kept`
    assert client.call(ops.get_file_content(kept.id)) == b"shared bytes"
    client.delete_file(kept.id)
    assert blobs.count() == 0
