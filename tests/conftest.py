"""Shared fixtures: an isolated working directory, and the local service on a loopback port.

Tests talk to the service over real HTTP (uvicorn in a thread on a pre-bound 127.0.0.1 socket),
never to mocks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from fieldwise._config import ServiceSettings
from fieldwise.client import Client
from fieldwise.service import RunningService, create_app, start_in_thread

if TYPE_CHECKING:
    from playwright.sync_api import Browser

TEST_KEY = "fw_test_key_0123456789"


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run every test in its own folder with no FIELDWISE_* settings from the developer."""
    import os

    for name in list(os.environ):
        # GITHUB_STEP_SUMMARY too: tests run inside GitHub Actions must not write its job summary
        if name.startswith("FIELDWISE_") or name == "GITHUB_STEP_SUMMARY":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


ServiceFactory = Callable[..., RunningService]


@pytest.fixture
def start_service(tmp_path: Path) -> Iterator[ServiceFactory]:
    """Start services (each with its own settings, and ``engines`` when a test hands the
    service engines of its own); all are stopped at teardown."""
    running: list[RunningService] = []

    def start(
        *, wrap: Callable[[Any], Any] | None = None, engines: Any = None, **overrides: Any
    ) -> RunningService:
        fields: dict[str, Any] = {"data_dir": tmp_path / "service", "api_keys": (TEST_KEY,)}
        fields.update(overrides)
        settings = ServiceSettings(**fields)
        app = create_app(settings, announce=lambda _m: None, engines=engines)
        service = start_in_thread(settings, app=wrap(app) if wrap else app)
        running.append(service)
        return service

    yield start
    for service in running:
        service.stop()


@pytest.fixture
def service(start_service: ServiceFactory) -> RunningService:
    return start_service()


@pytest.fixture
def client(service: RunningService) -> Iterator[Client]:
    with Client(service.base_url, service.api_key, max_retries=0) as c:
        yield c


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless and with no network (tests.chromium), one per test module.
    Playwright is imported here, so tests that use no browser do not pay for it."""
    from playwright.sync_api import sync_playwright

    from tests.chromium import ARGS, CHROMIUM

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def upload(client: Client) -> Callable[[bytes, str], str]:
    """Upload bytes to the test service under a file name; gives the file id."""

    def put(content: bytes, name: str = "doc.txt") -> str:
        return client.upload_file(content, filename=name).id

    return put
