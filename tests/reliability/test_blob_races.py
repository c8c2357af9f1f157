"""Content addressing under concurrency: deleting the last file of some content never takes
the bytes of a concurrent upload of the same content, on SQLite and on PostgreSQL.

One test forces the losing interleaving (the upload's bytes are written, then a delete of the
other file completes, then the upload records its file); the other runs many real races.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from fieldwise.service.resources.files import routes as files_routes
from tests.reliability.backends import Api, api, pg_url, together, unique

__all__ = ["api", "pg_url"]  # fixtures, imported for pytest

_BOUND = 60.0  # guards against a hang only


class _Gate:
    def __init__(self) -> None:
        self.reached = threading.Event()
        self.release = threading.Event()


@pytest.fixture
def held_upload(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Gate]:
    """The next upload stops after its bytes are in the blob store, before its file row."""
    gate = _Gate()
    real = files_routes.store_file

    def store_file(*args: Any, **kwargs: Any) -> Any:
        if not gate.reached.is_set():
            gate.reached.set()
            assert gate.release.wait(_BOUND)
        return real(*args, **kwargs)

    monkeypatch.setattr(files_routes, "store_file", store_file)
    yield gate
    gate.release.set()


def test_delete_between_an_uploads_bytes_and_its_row_keeps_the_bytes(
    api: Api, held_upload: _Gate
) -> None:
    content = unique("same bytes").encode()
    held_upload.release.set()  # the first upload passes
    first = api.upload(content)
    held_upload.reached.clear()
    held_upload.release.clear()
    second: dict[str, str] = {}
    uploader = threading.Thread(target=lambda: second.update(id=api.upload(content)))
    uploader.start()
    assert held_upload.reached.wait(_BOUND)
    api.ok("DELETE", f"/files/{first}")  # the last recorded reference goes
    held_upload.release.set()
    uploader.join(_BOUND)
    response = api.http.get(f"/files/{second['id']}/content")
    assert response.status_code == 200, response.text
    assert response.content == content


def test_many_delete_and_reupload_races_lose_no_content(api: Api) -> None:
    content = unique("raced bytes").encode()
    threads, rounds = 8, 25
    unreadable: list[str] = []

    def churn(_i: int) -> None:
        for _ in range(rounds):
            file_id = api.upload(content)
            response = api.http.get(f"/files/{file_id}/content")
            if response.status_code != 200 or response.content != content:
                unreadable.append(file_id)
            api.ok("DELETE", f"/files/{file_id}")

    together(threads, churn)
    assert unreadable == []
    survivor = api.upload(content)
    assert api.http.get(f"/files/{survivor}/content").content == content
    api.ok("DELETE", f"/files/{survivor}")
    assert api.blobs_on_disk() == []  # and the last delete left nothing behind
