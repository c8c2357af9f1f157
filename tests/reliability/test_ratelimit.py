"""Per-key token-bucket rate limiting: 429 with Retry-After and the error body; the client and
the runner wait and finish."""

from __future__ import annotations

import httpx
import pytest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fieldwise._config import service_settings
from fieldwise.client import Client, ops
from fieldwise.runner import load_results, run_versions
from fieldwise.service.http.ratelimit import TokenBucket
from tests.conftest import TEST_KEY, ServiceFactory
from tests.reliability.conftest import MakeWorld

OTHER_KEY = "fw_other_key_9876543210"


class StatusLog:
    """ASGI wrapper that records the status of every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.statuses: list[int] = []

    def __getattr__(self, name: str) -> object:
        return getattr(self.app, name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def record(message: Message) -> None:
            if message["type"] == "http.response.start":
                self.statuses.append(message["status"])
            await send(message)

        await self.app(scope, receive, record)


def test_bucket_refills_at_the_rate_up_to_the_burst() -> None:
    now = [0.0]
    bucket = TokenBucket(2.0, 3, now=lambda: now[0])
    assert [bucket.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take("a") == pytest.approx(0.5)
    assert bucket.take("b") == 0.0  # keys do not share a bucket
    now[0] = 0.5
    assert bucket.take("a") == 0.0
    now[0] = 100.0
    assert [bucket.take("a") for _ in range(4)][-1] > 0  # refill stops at the burst
    with pytest.raises(ValueError, match="rate"):
        TokenBucket(0, 1)


def test_settings_from_environment() -> None:
    settings = service_settings({"FIELDWISE_RATE_LIMIT": "2.5", "FIELDWISE_RATE_BURST": "4"})
    assert (settings.rate_limit_per_second, settings.rate_limit_burst) == (2.5, 4)
    assert service_settings({}).rate_limit_per_second is None


def test_a_key_over_its_rate_gets_429_with_retry_after(start_service: ServiceFactory) -> None:
    service = start_service(
        api_keys=(TEST_KEY, OTHER_KEY), rate_limit_per_second=0.5, rate_limit_burst=3
    )
    http = httpx.Client(base_url=service.base_url, headers={"x-api-key": TEST_KEY})
    statuses = [http.get("/processors").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    limited = http.get("/processors")
    assert limited.status_code == 429
    assert 1 <= int(limited.headers["retry-after"]) <= 2
    error = limited.json()["error"]
    assert (error["code"], error["retryable"]) == ("rate_limited", True)
    assert error["request_id"] == limited.headers["x-request-id"]
    assert TEST_KEY not in limited.text
    # Another key has its own bucket; a caller without a valid key is refused by auth first.
    other = httpx.get(service.base_url + "/processors", headers={"x-api-key": OTHER_KEY})
    assert other.status_code == 200
    assert httpx.get(service.base_url + "/processors").status_code == 401
    http.close()


def test_the_client_waits_out_429s(start_service: ServiceFactory) -> None:
    logs: list[StatusLog] = []
    service = start_service(
        rate_limit_per_second=4.0,
        rate_limit_burst=2,
        wrap=lambda app: logs.append(StatusLog(app)) or logs[0],
    )
    with Client(service.base_url, service.api_key, max_retries=8) as client:
        names = [client.create_processor(f"p{k}").id for k in range(8)]
    assert names == [f"p{k}" for k in range(8)]
    assert logs[0].statuses.count(429) >= 3
    assert logs[0].statuses.count(201) == 8  # each processor created once


def test_the_runner_finishes_against_a_rate_limited_service(make_world: MakeWorld) -> None:
    logs: list[StatusLog] = []
    world = make_world(
        5,
        rate_limit_per_second=15.0,
        rate_limit_burst=4,
        wrap=lambda app: logs.append(StatusLog(app)) or logs[0],
    )
    logs[0].statuses.clear()
    result = run_versions(
        world.connection(max_retries=10),
        eval_set="texts",
        processor_id=world.processor_id,
        versions=[world.v1, world.v2],
        concurrency=8,
    )
    assert (result.done, result.succeeded, result.failed) == (10, 10, 0)
    frame = load_results(result.runset_id)
    assert len(frame) == 10
    assert logs[0].statuses.count(429) >= 5
    with Client(world.service.base_url, world.service.api_key, max_retries=10) as client:
        runs = list(
            client.paginate(lambda cursor: ops.list_runs(world.processor_id, cursor=cursor))
        )
    assert len(runs) == 10  # a refused create was not half-done: one run per pair
    for row in frame.itertuples():
        assert row.value["invoice_number"] == row.ground_truth["invoice_number"]
