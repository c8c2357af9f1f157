"""The client against the real service: typed results, the error tree, retries, config."""

from __future__ import annotations

import asyncio
import socket

import pytest

from fieldwise._errors import (
    AuthenticationError,
    ConfigError,
    NotFoundError,
    RateLimitError,
    ServerError,
    TransportError,
)
from fieldwise.client import AsyncClient, Client, ops
from fieldwise.service import RunningService
from tests.conftest import ServiceFactory
from tests.faults import FaultInjector, FaultPlan


def test_errors_carry_status_code_message_and_request_id(client: Client) -> None:
    with pytest.raises(NotFoundError) as err:
        client.get_processor("missing")
    assert err.value.status_code == 404
    assert err.value.code == "not_found"
    assert "missing" in err.value.message
    assert err.value.request_id
    assert err.value.request_id.startswith("req_")
    assert err.value.response is not None


def test_wrong_key_is_authentication_error(service: RunningService) -> None:
    with Client(service.base_url, "wrong") as bad, pytest.raises(AuthenticationError):
        bad.list_processors().__next__()


def test_retries_503_then_succeeds(start_service: ServiceFactory) -> None:
    plan = FaultPlan(fail_first=3)
    service = start_service(wrap=lambda app: FaultInjector(app, plan))
    with Client(service.base_url, service.api_key, max_retries=4) as c:
        created = c.create_processor("after-faults")  # POST: 503 means "not processed"
        assert created.id == "after-faults"
    assert plan.injected == 3


def test_gives_up_after_max_retries(start_service: ServiceFactory) -> None:
    plan = FaultPlan(fail_rate=1.0)
    service = start_service(wrap=lambda app: FaultInjector(app, plan))
    with Client(service.base_url, service.api_key, max_retries=2) as c, pytest.raises(ServerError):
        c.get_processor("x")
    assert plan.injected == 3


def test_honours_retry_after_on_429(start_service: ServiceFactory) -> None:
    plan = FaultPlan(fail_first=1, status=429, retry_after="0.2")
    service = start_service(wrap=lambda app: FaultInjector(app, plan))
    with Client(service.base_url, service.api_key, max_retries=1) as c:
        assert list(c.list_processors()) == []
    plan.fail_first, plan.injected = 1, 0
    with (
        Client(service.base_url, service.api_key, max_retries=0) as c,
        pytest.raises(RateLimitError) as err,
    ):
        list(c.list_processors())
    assert err.value.retry_after == 0.2


def test_connection_refused_is_transport_error() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with Client(f"http://127.0.0.1:{port}", "k", max_retries=1) as c, pytest.raises(TransportError):
        c.get_processor("x")


def test_configuration_from_environment(
    service: RunningService, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(ConfigError):
        Client()
    monkeypatch.setenv("FIELDWISE_BASE_URL", service.base_url)
    monkeypatch.setenv("FIELDWISE_API_KEY", service.api_key)
    with Client() as c:
        assert c.create_processor("from-env").id == "from-env"


def test_async_client_concurrent_calls_and_pagination(service: RunningService) -> None:
    async def scenario() -> list[str]:
        async with AsyncClient(service.base_url, service.api_key) as ac:
            await asyncio.gather(*(ac.call(ops.create_processor(f"p{i}")) for i in range(12)))
            return [p.id async for p in ac.paginate(lambda c: ops.list_processors(5, c))]

    ids = asyncio.run(scenario())
    assert sorted(ids) == sorted(f"p{i}" for i in range(12))
