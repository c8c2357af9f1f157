"""A test-only ASGI wrapper that injects faults in front of the real service.

It decides per request, from a seeded RNG, whether to answer 503 before the app sees the
request, or to delay it; everything else reaches the app untouched. With the mishap rates set
it can also drop the connection after the headers (``reset``), cut the app's real answer off
half-way through its body (``truncate``), answer a 500 in place of the app's real answer
(``error_after``: the work was done), or hold a request past the client's timeout before the
app sees it (``hang``).
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Message, Receive, Scope, Send


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
    reset_rate: float = 0.0
    truncate_rate: float = 0.0
    hang_rate: float = 0.0
    hang_seconds: float = 2.0
    #: Mishaps to inflict first, in order, before the rates decide: makes "each kind happened"
    #: deterministic however many requests a run happens to make.
    mishap_script: list[str] = field(default_factory=list)
    mishaps: Counter[str] = field(default_factory=Counter)
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

    def mishap(self) -> str | None:
        """``reset``, ``truncate``, ``hang`` or None; draws nothing when no rate is set."""
        rates = (
            ("reset", self.reset_rate),
            ("truncate", self.truncate_rate),
            ("hang", self.hang_rate),
        )
        with self._lock:
            if self.mishap_script:
                kind = self.mishap_script.pop(0)
                self.mishaps[kind] += 1
                return kind
        if not any(rate for _, rate in rates):
            return None
        with self._lock:
            roll = self._rng.random()
            for kind, rate in rates:
                if roll < rate:
                    self.mishaps[kind] += 1
                    return kind
                roll -= rate
            return None


class _Dropped(Exception):
    """Raised after a partial answer: uvicorn then closes the connection mid-response."""


class FaultInjector:
    """``plan``'s faults in front of ``app``; with ``only``, just on the requests it picks
    (the others reach the app untouched and draw nothing from the plan)."""

    def __init__(
        self, app: ASGIApp, plan: FaultPlan, *, only: Callable[[Scope], bool] | None = None
    ) -> None:
        self.app = app
        self.plan = plan
        self.only = only

    def __getattr__(self, name: str) -> object:  # reach the wrapped app's attributes
        return getattr(self.app, name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (self.only is not None and not self.only(scope)):
            await self.app(scope, receive, send)
            return
        fail, delay = self.plan.decide()
        if delay:
            await asyncio.sleep(self.plan.delay_seconds)
        if not fail:
            await self._mishap(self.plan.mishap(), scope, receive, send)
            return
        await self._error(send, self.plan.status)

    async def _error(self, send: Send, status: int) -> None:
        body = json.dumps(
            {
                "error": {
                    "code": "unavailable" if status == 503 else "internal_error",
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
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def _mishap(self, kind: str | None, scope: Scope, receive: Receive, send: Send) -> None:
        if kind == "hang":
            await asyncio.sleep(self.plan.hang_seconds)
        if kind == "reset":
            start = {"type": "http.response.start", "status": 200, "headers": []}
            await send({**start, "headers": [(b"content-length", b"100")]})
            raise _Dropped
        if kind == "error_after":  # the app did the work; its answer is replaced by a 500

            async def swallow(_message: Message) -> None:
                return None

            await self.app(scope, receive, swallow)
            await self._error(send, 500)
            return
        if kind != "truncate":
            await self.app(scope, receive, send)
            return

        async def cut(message: Message) -> None:
            if message["type"] == "http.response.body":
                body = message.get("body", b"")
                await send(
                    {
                        "type": "http.response.body",
                        "body": body[: len(body) // 2],
                        "more_body": True,
                    }
                )
                raise _Dropped
            await send(message)

        await self.app(scope, receive, cut)


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
