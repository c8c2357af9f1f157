"""A full disk or a read-only data dir gives a clear error, never corrupt state.

The data dir sits on a real tmpfs of a few MB (mounted for the test; the suite runs as root in
CI and here), or behind a read-only bind mount.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from fieldwise._errors import ConfigError
from fieldwise.cli import main
from tests.conftest import ServiceFactory
from tests.reliability.conftest import raw


def _mount(*args: str) -> None:
    done = subprocess.run(["mount", *args], capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"mount {' '.join(args)}: {done.stderr} (needs root)"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    disk = tmp_path / "disk"
    disk.mkdir()
    _mount("-t", "tmpfs", "-o", "size=3m", "tmpfs", str(disk))
    yield disk
    subprocess.run(["umount", "-l", str(disk)], check=False)


@pytest.fixture
def read_only_view(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    source, view = tmp_path / "source", tmp_path / "view"
    source.mkdir()
    view.mkdir()
    _mount("--bind", str(source), str(view))
    _mount("-o", "remount,bind,ro", str(view))
    yield source, view
    subprocess.run(["umount", "-l", str(view)], check=False)


def test_a_full_disk_answers_507_and_keeps_every_stored_file_whole(
    start_service: ServiceFactory, small_disk: Path
) -> None:
    service = start_service(data_dir=small_disk / "svc")
    stored: dict[str, bytes] = {}
    with raw(service.base_url, timeout=30) as http:
        refused = None
        for k in range(40):
            content = os.urandom(256 * 1024)
            response = http.post("/files/upload", files={"file": (f"{k}.bin", content)})
            if response.status_code != 201:
                refused = response
                break
            stored[response.json()["id"]] = content
        assert refused is not None, "the disk never filled"
        assert refused.status_code == 507, refused.text
        error = refused.json()["error"]
        assert (error["code"], error["retryable"]) == ("insufficient_storage", True)
        assert "nothing was changed" in error["message"]
        assert error["request_id"] == refused.headers["x-request-id"]

        # Still up; every file it answered 201 for is listed and whole; nothing half-stored.
        listed = http.get("/files", params={"limit": 1000}).json()["data"]
        assert {f["id"] for f in listed} == set(stored)
        for file_id, content in stored.items():
            assert http.get(f"/files/{file_id}/content").content == content
        assert list((small_disk / "svc" / "blobs" / "tmp").iterdir()) == []

        # Room again: the service takes writes without a restart.
        for file_id in list(stored)[:4]:
            assert http.delete(f"/files/{file_id}").status_code == 200
        assert http.post("/files/upload", files={"file": ("x", b"after")}).status_code == 201
    service.stop()
    database = sqlite3.connect(small_disk / "svc" / "fieldwise.db")
    assert database.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    database.close()


def test_a_read_only_data_dir_fails_at_startup_with_one_clear_line(
    start_service: ServiceFactory,
    read_only_view: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    source, view = read_only_view
    start_service(data_dir=source / "svc").stop()  # an existing service's data, now read-only
    for data_dir in (view / "svc", view / "new"):
        with pytest.raises(ConfigError, match="is not writable"):
            start_service(data_dir=data_dir)
        with pytest.raises(SystemExit) as exited:
            main(["serve", "--port", "0", "--data-dir", str(data_dir)])
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert err.strip().splitlines()[-1] == (
            f"error: the data dir {data_dir} is not writable (Read-only file system)"
        )
        assert "Traceback" not in err
    assert sorted(p.name for p in source.iterdir()) == ["svc"]  # nothing written anywhere


def test_blob_storage_turning_read_only_at_runtime_answers_507(
    start_service: ServiceFactory, tmp_path: Path
) -> None:
    service = start_service()
    blobs = tmp_path / "service" / "blobs"
    with raw(service.base_url) as http:
        kept = http.post("/files/upload", files={"file": ("a.txt", b"kept")}).json()["id"]
        _mount("--bind", str(blobs), str(blobs))
        try:
            _mount("-o", "remount,bind,ro", str(blobs))
            refused = http.post("/files/upload", files={"file": ("b.txt", b"refused")})
            assert refused.status_code == 507, refused.text
            assert "Read-only file system" in refused.json()["error"]["message"]
            assert http.get(f"/files/{kept}/content").content == b"kept"  # reads still work
        finally:
            subprocess.run(["umount", "-l", str(blobs)], check=False)
        assert [f["id"] for f in http.get("/files").json()["data"]] == [kept]
        assert http.post("/files/upload", files={"file": ("c.txt", b"ok")}).status_code == 201
