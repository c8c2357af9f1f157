"""The service on each database it supports, for race tests: SQLite (WAL) and a real
PostgreSQL server, reached over real HTTP.

Import the fixtures into a test module (``from tests.reliability.backends import api, pg_url``):
``api`` is parametrized over both databases; the PostgreSQL server lives as long as the module.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from fieldwise._config import ServiceSettings
from fieldwise.service import create_app, start_in_thread
from fieldwise.service.state import Engines
from tests.postgres import postgres_server
from tests.reliability.conftest import wait_for

KEY = "fw_race_key_0123456789"


@dataclass
class Api:
    """An HTTP client of the running service (safe to share between threads) and its data dir."""

    http: httpx.Client
    data_dir: Path

    def ok(self, method: str, path: str, **kwargs: Any) -> Any:
        """The JSON body of a 2xx answer (anything else fails the test with the body)."""
        response = self.http.request(method, path, **kwargs)
        assert response.status_code < 300, (method, path, response.status_code, response.text)
        return response.json()

    def upload(self, content: bytes, name: str = "doc.txt") -> str:
        files = {"file": (name, content, "text/plain")}
        return str(self.ok("POST", "/files/upload", files=files)["id"])

    def wait_run(self, processor_id: str, run_id: str) -> Any:
        """The processor run once it reached a terminal state."""

        def done() -> Any:
            run = self.ok("GET", f"/processors/{processor_id}/runs/{run_id}")
            return run if run["status"] in ("succeeded", "failed", "canceled") else None

        return wait_for(done, timeout=60)

    def blobs_on_disk(self) -> list[Path]:
        """Every stored blob file (placed, or staged in ``tmp``)."""
        root = self.data_dir / "blobs"
        return sorted(p for p in root.rglob("*") if p.is_file())


def unique(prefix: str) -> str:
    """A name no other test on the shared PostgreSQL database uses."""
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def together(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(0..count-1)`` on ``count`` threads released at the same moment."""
    start = threading.Barrier(count)

    def run(index: int) -> Any:
        start.wait(timeout=60)
        return work(index)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def api(request: pytest.FixtureRequest, tmp_path: Path, engines: Engines) -> Iterator[Api]:
    """The service on SQLite or on PostgreSQL, with a client allowed many parallel requests,
    calling ``engines`` (the real ones unless a drill's module overrides that fixture)."""
    database_url = request.getfixturevalue("pg_url") if request.param == "postgresql" else None
    data_dir = tmp_path / "svc"
    settings = ServiceSettings(
        data_dir=data_dir,
        database_url=database_url,
        api_keys=(KEY,),
        # the gated test engine (tests.service.resources.runs.slow_engine)
        allow_python_engines=True,
    )
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    with (
        start_in_thread(
            settings, app=create_app(settings, announce=lambda _m: None, engines=engines)
        ) as running,
        httpx.Client(
            base_url=running.base_url, headers={"x-api-key": KEY}, timeout=120, limits=limits
        ) as http,
    ):
        yield Api(http, data_dir)
