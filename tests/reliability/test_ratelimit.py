"""Per-key token-bucket rate limiting: 429 with Retry-After and the error body; the client and
the runner wait and finish.

No outcome here depends on how fast the machine is: the service-level test uses a rate no
test outlives (one token per 1,000 s), and the client and runner tests put the service's
middleware in front of the app with a bucket whose clock moves a fixed step per request
(:class:`Ticks`), so refills follow the number of requests, never the wall clock.
"""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fieldwise._config import service_settings
from fieldwise.client import Client, ops
from fieldwise.runner import load_results, run_versions
from fieldwise.service import RunningService
from fieldwise.service.http.middleware import RateLimitMiddleware
from fieldwise.service.http.ratelimit import TokenBucket
from tests.conftest import TEST_KEY, ServiceFactory
from tests.reliability.conftest import MakeWorld
from tests.service.console.conftest import csrf_of

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


class Ticks:
    """A bucket clock that moves ``step`` seconds each time it is read (once per request)."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            self.now += self.step
            return self.now


class Limited:
    """The rate-limit middleware around the app, off until :meth:`limit` (so a test's setup
    requests are not limited)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.limited: ASGIApp | None = None

    def __getattr__(self, name: str) -> object:
        return getattr(self.app, name)

    def limit(self, bucket: TokenBucket) -> None:
        self.limited = RateLimitMiddleware(self.app, bucket)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await (self.limited or self.app)(scope, receive, send)


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


def test_wait_takes_nothing_and_full_buckets_are_pruned() -> None:
    now = [0.0]
    bucket = TokenBucket(1.0, 2, now=lambda: now[0])
    assert bucket.wait("a") == 0.0
    assert [bucket.take("a") for _ in range(2)] == [0.0, 0.0]
    assert bucket.wait("a") == pytest.approx(1.0)
    assert bucket.wait("a") == pytest.approx(1.0)  # asking again took nothing
    now[0] = 1.0
    assert bucket.wait("a") == 0.0
    # Thousands of callers that came once: their buckets refill and are dropped.
    for n in range(10_000):
        bucket.take(f"client {n}")
    now[0] = 10.0
    bucket.take("late")
    assert len(bucket._buckets) == 1


def test_settings_from_environment() -> None:
    settings = service_settings({"FIELDWISE_RATE_LIMIT": "2.5", "FIELDWISE_RATE_BURST": "4"})
    assert (settings.rate_limit_per_second, settings.rate_limit_burst) == (2.5, 4)
    assert service_settings({}).rate_limit_per_second is None


def test_a_key_over_its_rate_gets_429_with_retry_after(start_service: ServiceFactory) -> None:
    # One token per 1,000 s: no refill can come during the test, however slow the machine.
    service = start_service(
        api_keys=(TEST_KEY, OTHER_KEY), rate_limit_per_second=0.001, rate_limit_burst=3
    )
    http = httpx.Client(base_url=service.base_url, headers={"x-api-key": TEST_KEY}, timeout=60)
    statuses = [http.get("/processors").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    limited = http.get("/processors")
    assert limited.status_code == 429
    assert 900 <= int(limited.headers["retry-after"]) <= 1000
    error = limited.json()["error"]
    assert (error["code"], error["retryable"]) == ("rate_limited", True)
    assert error["request_id"] == limited.headers["x-request-id"]
    assert TEST_KEY not in limited.text
    # Another key has its own bucket; a caller without a valid key is refused by auth first.
    other = httpx.get(
        service.base_url + "/processors", headers={"x-api-key": OTHER_KEY}, timeout=60
    )
    assert other.status_code == 200
    assert httpx.get(service.base_url + "/processors", timeout=60).status_code == 401
    http.close()


def test_the_client_waits_out_429s(start_service: ServiceFactory) -> None:
    logs: list[StatusLog] = []
    limits: list[Limited] = []
    service = start_service(wrap=lambda app: logs.append(StatusLog(app)) or logs[0])
    limits.append(Limited(logs[0].app))
    logs[0].app = limits[0]
    # Half a token per request: after the burst, every other request is refused (429,
    # Retry-After: 1) and the client, waiting that second, succeeds with the next.
    limits[0].limit(TokenBucket(4.0, 2, now=Ticks(0.125)))
    with Client(service.base_url, service.api_key, max_retries=8) as client:
        names = [client.create_processor(f"p{k}").id for k in range(8)]
    assert names == [f"p{k}" for k in range(8)]
    assert logs[0].statuses.count(429) == 5
    assert logs[0].statuses.count(201) == 8  # each processor created once


def test_the_runner_finishes_against_a_rate_limited_service(make_world: MakeWorld) -> None:
    logs: list[StatusLog] = []
    limits: list[Limited] = []

    def wrap(app: ASGIApp) -> StatusLog:
        limits.append(Limited(app))
        logs.append(StatusLog(limits[0]))
        return logs[0]

    world = make_world(5, wrap=wrap)
    logs[0].statuses.clear()
    # Half a token per request: at least (requests - 2 x burst) answers are 429s, whatever the
    # timing; 30 retries make a request refused that many times in a row out of reach.
    limits[0].limit(TokenBucket(15.0, 4, now=Ticks(1 / 30)))
    result = run_versions(
        world.connection(max_retries=30),
        eval_set="texts",
        processor_id=world.processor_id,
        versions=[world.v1, world.v2],
        concurrency=8,
    )
    assert (result.done, result.succeeded, result.failed) == (10, 10, 0)
    frame = load_results(result.runset_id)
    assert len(frame) == 10
    assert logs[0].statuses.count(429) >= 5
    with Client(world.service.base_url, world.service.api_key, max_retries=30) as client:
        runs = list(
            client.paginate(lambda cursor: ops.list_runs(world.processor_id, cursor=cursor))
        )
    assert len(runs) == 10  # a refused create was not half-done: one run per pair
    for row in frame.itertuples():
        assert row.value["invoice_number"] == row.ground_truth["invoice_number"]


def _from(service: RunningService, address: str, **kwargs: Any) -> httpx.Client:
    """A client whose connections leave from ``address`` (any 127.x.y.z is loopback): to the
    service, another client."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=service.base_url, transport=transport, timeout=60, **kwargs)


def _console_sign_in(http: httpx.Client, key: str) -> httpx.Response:
    form = http.get("/console/sign-in")
    return http.post("/console/sign-in", data={"api_key": key, "csrf": csrf_of(form.text)})


def test_wrong_keys_from_one_address_get_429_after_the_burst(
    start_service: ServiceFactory,
) -> None:
    # Three wrong keys per address, then one more per 1,000 s: no refill during the test.
    service = start_service(rate_limit_per_second=0.001, rate_limit_burst=3)
    with _from(service, "127.0.0.2") as guesser, _from(service, "127.0.0.1") as honest:
        wrong = [f"fw_guess_{n}" for n in range(4)]
        statuses = [guesser.get("/files", headers={"x-api-key": k}).status_code for k in wrong]
        assert statuses == [401, 401, 401, 429]
        limited = guesser.get("/files", headers={"x-api-key": "fw_guess_5"})
        assert 900 <= int(limited.headers["retry-after"]) <= 1000
        error = limited.json()["error"]
        assert (error["code"], error["retryable"]) == ("rate_limited", True)
        assert "wrong API keys" in error["message"]
        # The right key from that address is refused too: a 429 tells nothing about the key.
        assert guesser.get("/files", headers={"x-api-key": TEST_KEY}).status_code == 429
        # So is a console sign-in from it: one count of wrong keys for the API and the console.
        refused = _console_sign_in(guesser, TEST_KEY)
        assert refused.status_code == 429
        assert "retry-after" in refused.headers
        assert "fieldwise_console=" not in str(refused.headers)
        # Another client is not held back by the guesser.
        assert honest.get("/files", headers={"x-api-key": TEST_KEY}).status_code == 200
    # Wrong keys at the console's sign-in count against the API too: two there (three console
    # requests, within the address's burst of requests) and one on the API use its three tries.
    with _from(service, "127.0.0.3") as mixed:
        form = mixed.get("/console/sign-in")
        for key in ("fw_console_guess_1", "fw_console_guess_2"):
            form = mixed.post("/console/sign-in", data={"api_key": key, "csrf": csrf_of(form.text)})
            assert form.status_code == 401
        assert mixed.get("/files", headers={"x-api-key": "fw_api_guess"}).status_code == 401
        assert mixed.get("/files", headers={"x-api-key": TEST_KEY}).status_code == 429
    # Behind a proxy on loopback (trusted by uvicorn), its clients are told apart by
    # X-Forwarded-For.
    with _from(service, "127.0.0.1", headers={"x-forwarded-for": "203.0.113.9"}) as proxied:
        assert proxied.get("/files", headers={"x-api-key": TEST_KEY}).status_code == 200


def test_wrong_keys_are_not_limited_without_a_rate_limit(service: RunningService) -> None:
    with _from(service, "127.0.0.2") as guesser:
        statuses = {
            guesser.get("/files", headers={"x-api-key": f"fw_{n}"}).status_code for n in range(30)
        }
        assert statuses == {401}
        assert guesser.get("/files", headers={"x-api-key": TEST_KEY}).status_code == 200
