"""A test-only ASGI wrapper that injects faults in front of the real service.

It decides per request, from a seeded RNG, whether to answer 503 before the app sees the
request, or to delay it; everything else reaches the app untouched.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Receive, Scope, Send


@dataclass
class FaultPlan:
    fail_rate: float = 0.0
    delay_rate: float = 0.0
    delay_seconds: float = 0.05
    fail_first: int = 0
    status: int = 503
    retry_after: str | None = None
    seed: int = 0
    injected: int = 0
    passed: int = 0
    _rng: random.Random = field(init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def decide(self) -> tuple[bool, bool]:
        with self._lock:
            if self.fail_first > 0:
                self.fail_first -= 1
                self.injected += 1
                return True, False
            fail = self._rng.random() < self.fail_rate
            delay = self._rng.random() < self.delay_rate
            if fail:
                self.injected += 1
            else:
                self.passed += 1
            return fail, delay


class FaultInjector:
    def __init__(self, app: ASGIApp, plan: FaultPlan) -> None:
        self.app = app
        self.plan = plan

    def __getattr__(self, name: str) -> object:  # reach the wrapped app's attributes
        return getattr(self.app, name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        fail, delay = self.plan.decide()
        if delay:
            await asyncio.sleep(self.plan.delay_seconds)
        if not fail:
            await self.app(scope, receive, send)
            return
        body = json.dumps(
            {
                "error": {
                    "code": "unavailable",
                    "message": "injected fault",
                    "param": None,
                    "retryable": True,
                    "request_id": None,
                }
            }
        ).encode()
        headers = [(b"content-type", b"application/json")]
        if self.plan.retry_after is not None:
            headers.append((b"retry-after", self.plan.retry_after.encode()))
        await send({"type": "http.response.start", "status": self.plan.status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class RequestLog:
    """ASGI wrapper that records ``(method, path)`` of every request the app receives."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.requests: list[tuple[str, str]] = []

    def __getattr__(self, name: str) -> object:
        return getattr(self.app, name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            self.requests.append((scope["method"], scope["path"]))
        await self.app(scope, receive, send)

    def writes(self) -> list[tuple[str, str]]:
        return [r for r in self.requests if r[0] in ("POST", "PATCH", "PUT", "DELETE")]

    def clear(self) -> None:
        self.requests.clear()
