"""Per-API-key rate limiting: a token bucket in front of the routes, as ASGI middleware.

Each key (by its hash, so the key itself is never held) refills ``rate`` tokens per second up to
``burst``; a request takes one token or is answered 429 with ``Retry-After`` (whole seconds
until a token is back) and the error body. Off unless ``rate_limit_per_second`` is set.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

from fieldwise.service.http.auth import hash_key
from fieldwise.service.http.middleware import _header, _request_id, _send_error

__all__ = ["RateLimitMiddleware", "TokenBucket"]


@dataclass
class _Bucket:
    tokens: float
    stamp: float


class TokenBucket:
    """Token buckets keyed by caller; ``take(key)`` returns 0 when allowed, else the wait."""

    def __init__(self, rate: float, burst: int, now: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be > 0 and burst >= 1")
        self.rate = rate
        self.burst = burst
        self._now = now
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """Take a token for ``key``; 0.0 if granted, else seconds until one is available."""
        with self._lock:
            now = self._now()
            bucket = self._buckets.get(key)
            if bucket is None:
                bucket = self._buckets[key] = _Bucket(float(self.burst), now)
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
            bucket.stamp = now
            if bucket.tokens >= 1:
                bucket.tokens -= 1
                return 0.0
            return (1 - bucket.tokens) / self.rate


class RateLimitMiddleware:
    """Answers 429 (with ``Retry-After``) to a key that is out of tokens; runs after auth."""

    def __init__(self, app: ASGIApp, bucket: TokenBucket) -> None:
        self.app = app
        self.bucket = bucket

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        key = hash_key(_header(scope, b"x-api-key") or "")
        wait = self.bucket.take(key)
        if wait > 0:
            retry_after = max(1, math.ceil(wait))
            message = f"Rate limit exceeded; retry in {retry_after} s."
            headers = {"retry-after": str(retry_after)}
            await _send_error(send, 429, message, _request_id(scope), headers, retryable=True)
            return
        await self.app(scope, receive, send)
