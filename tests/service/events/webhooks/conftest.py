"""Fixtures for webhook tests: the service on a virtual clock (no background thread, so each
test drives dispatch with ``run_due``), scripted receivers, and a real SMTP server."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from fieldwise._config import ServiceSettings
from fieldwise.client import Client
from fieldwise.service import RunningService, create_app, start_in_thread
from fieldwise.service.clock import Clock, ManualClock
from fieldwise.service.events.webhooks import DueRun, run_due
from fieldwise.service.state import ServiceState
from tests.conftest import TEST_KEY
from tests.webhooks.receivers import ScriptedReceiver, SmtpServer

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ADMINS = ("ops@example.test", "lead@example.test")


@dataclass
class WebhookService:
    running: RunningService
    state: ServiceState
    client: Client

    def run_due(self, **kwargs: Any) -> DueRun:
        return run_due(self.state, **kwargs)

    @property
    def clock(self) -> ManualClock:
        assert isinstance(self.state.clock, ManualClock)
        return self.state.clock


Start = Callable[..., WebhookService]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    server = SmtpServer()
    yield server
    server.stop()


@pytest.fixture
def start_webhooks(tmp_path: Path, clock: ManualClock) -> Iterator[Start]:
    """Start the service (same data dir each time, so a second start is a restart)."""
    started: list[WebhookService] = []

    def start(*, clock_: Clock | None = None, poll: float = 0, **overrides: Any) -> WebhookService:
        fields: dict[str, Any] = {
            "data_dir": tmp_path / "service",
            "api_keys": (TEST_KEY,),
            "webhook_allow_http": ("127.0.0.1", "localhost"),
            "admin_emails": ADMINS,
            "extra": {"webhooks.poll_interval": poll},
        }
        fields.update(overrides)
        settings = ServiceSettings(**fields)
        app = create_app(settings, clock=clock_ or clock, announce=lambda _m: None)
        running = start_in_thread(settings, app=app)
        client = Client(running.base_url, running.api_key, max_retries=0)
        service = WebhookService(running, app.state.fieldwise, client)
        started.append(service)
        return service

    yield start
    for service in started:
        service.client.close()
        service.running.stop()


@pytest.fixture
def hooks(start_webhooks: Start) -> WebhookService:
    return start_webhooks()


@pytest.fixture
def receivers() -> Iterator[Callable[..., ScriptedReceiver]]:
    made: list[ScriptedReceiver] = []

    def make(*args: Any, **kwargs: Any) -> ScriptedReceiver:
        receiver = ScriptedReceiver(*args, **kwargs)
        made.append(receiver)
        return receiver

    yield make
    for receiver in made:
        receiver.stop()
