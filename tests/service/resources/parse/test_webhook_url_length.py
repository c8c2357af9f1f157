"""A ``webhook_url`` longer than the 2,048 characters the service stores is refused at the
edge (422 naming it), on SQLite and on PostgreSQL; and a parse run whose notification the
database refuses after the run started ends failed, never stuck in progress."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, func, select, update

from fieldwise.service import RunningService
from fieldwise.service.jobs import jobs
from fieldwise.service.resources.parse.tables import parse_runs
from tests.conftest import TEST_KEY, ServiceFactory
from tests.postgres import postgres_server

PREFIX = "http://127.0.0.1:9/hook?q="
FITS = PREFIX + "a" * (2048 - len(PREFIX))
TOO_LONG = FITS + "a"
GUARD = 120.0  # seconds: only guards against a hang


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'service' / 'fieldwise.db'}"
    url: str = request.getfixturevalue("pg_url")
    return url


def _start(start_service: ServiceFactory, database: str) -> tuple[RunningService, httpx.Client]:
    service = start_service(database_url=database, webhook_allow_http=("127.0.0.1",))
    return service, httpx.Client(
        base_url=service.base_url, headers={"x-api-key": TEST_KEY}, timeout=GUARD
    )


def _parse(http: httpx.Client, path: str, webhook_url: str) -> httpx.Response:
    return http.post(
        path, files={"file": ("a.txt", b"Total: 12.50\n")}, data={"webhook_url": webhook_url}
    )


def _settled(http: httpx.Client, run_id: str) -> dict[str, object]:
    deadline = time.monotonic() + GUARD
    while time.monotonic() < deadline:
        run: dict[str, object] = http.get(f"/parse/runs/{run_id}").json()
        if run["status"] in ("succeeded", "failed", "canceled"):
            return run
        time.sleep(0.05)
    raise AssertionError(f"parse run {run_id} still {run['status']} after {GUARD:g} s")


def test_a_webhook_url_over_2048_characters_is_refused_at_the_edge(
    start_service: ServiceFactory, database: str
) -> None:
    _service, http = _start(start_service, database)
    with http:
        for path in ("/parse/file/async", "/parse/file"):
            answer = _parse(http, path, TOO_LONG)
            assert answer.status_code == 422, answer.text
            error = answer.json()["error"]
            assert error["param"] == "webhook_url"
            assert "longer than 2048 characters" in error["message"]
        body = {"url": TOO_LONG, "events": ["parse.run.completed"]}
        assert http.post("/webhooks/endpoints", json=body).json()["error"]["param"] == "url"
        engine = create_engine(database)
        with engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(parse_runs)).scalar() == 0
        engine.dispose()

        accepted = _parse(http, "/parse/file/async", FITS)
        assert accepted.status_code == 202, accepted.text
        assert _settled(http, accepted.json()["id"])["status"] == "succeeded"


def test_a_run_whose_notification_cannot_be_stored_ends_failed(
    start_service: ServiceFactory, pg_url: str
) -> None:
    """What an unchecked long URL did on PostgreSQL: the run's notification (its event row)
    is refused after the run started. Here the row is given such a URL behind the edge's back,
    and its job queued again, before a service starts to run it."""
    first, http = _start(start_service, pg_url)
    with http:
        run_id = _parse(http, "/parse/file/async", FITS).json()["id"]
        assert _settled(http, run_id)["status"] == "succeeded"
    first.stop()
    engine = create_engine(pg_url)
    with engine.begin() as conn:
        conn.execute(
            update(parse_runs)
            .where(parse_runs.c.id == run_id)
            .values(
                status="queued", webhook_url=TOO_LONG, started_at=None, finished_at=None,
                output_file_id=None, page_count=None,
            )
        )  # fmt: skip
        conn.execute(
            update(jobs)
            .where(jobs.c.target_id == run_id)
            .values(
                status="queued", attempts=0, owner=None, claimed_at=None, finished_at=None,
                lease_token=None, lease_expires_at=None,
            )
        )  # fmt: skip
    engine.dispose()
    _second, http = _start(start_service, pg_url)
    with http:
        run = _settled(http, run_id)
    assert run["status"] == "failed"
    assert run["failure_reason"] == "internal_error"
