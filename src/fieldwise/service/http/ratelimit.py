"""Rate limiting with token buckets: requests per API key, and failed authentications per
client address. Off unless ``rate_limit_per_second`` is set.

Each caller refills ``rate`` tokens per second up to ``burst``. ``RateLimitMiddleware`` (in
:mod:`fieldwise.service.http.middleware`) takes one per request, keyed by the API key (by its
hash, so the key itself is never held), or by the client address for a request with none (the
console's pages); out of tokens, it answers 429 with ``Retry-After`` (whole seconds until a
token is back) and the error body.

:class:`AuthFailures` takes one per wrong key a client address presents, on the API and at the
console's sign-in alike; once that address is out of tokens, every key it presents is refused
with 429 until a token is back, the right key too, so a 429 says nothing about the key tried.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["AuthFailures", "TokenBucket", "retry_after"]

#: Past this many callers, buckets that have refilled to the burst (the same as no bucket) are
#: dropped, so callers that come and go (client addresses) do not grow the table for ever.
_PRUNE_AT = 10_000


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
            bucket = self._refilled(key, self._now())
            if bucket.tokens >= 1:
                bucket.tokens -= 1
                return 0.0
            return (1 - bucket.tokens) / self.rate

    def wait(self, key: str) -> float:
        """What :meth:`take` would answer, taking nothing: 0.0 if ``key`` has a token."""
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is None:
                return 0.0
            tokens = min(self.burst, bucket.tokens + (self._now() - bucket.stamp) * self.rate)
            return 0.0 if tokens >= 1 else (1 - tokens) / self.rate

    def _refilled(self, key: str, now: float) -> _Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= _PRUNE_AT:
                self._prune(now)
            bucket = self._buckets[key] = _Bucket(float(self.burst), now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        return bucket

    def _prune(self, now: float) -> None:
        full = [
            key
            for key, bucket in self._buckets.items()
            if bucket.tokens + (now - bucket.stamp) * self.rate >= self.burst
        ]
        for key in full:
            del self._buckets[key]


def retry_after(wait: float) -> int:
    """The ``Retry-After`` of a wait: whole seconds, at least 1."""
    return max(1, math.ceil(wait))


class AuthFailures:
    """Failed authentications per client address, over one :class:`TokenBucket`, shared by
    the API's key check and the console's sign-in: a wrong key takes a token; out of tokens,
    the address may present no key (right or wrong) until one is back."""

    def __init__(self, bucket: TokenBucket) -> None:
        self.bucket = bucket

    def retry_after(self, client: str) -> int:
        """0 if ``client`` may present a key now; else the seconds until it may."""
        wait = self.bucket.wait(client)
        return retry_after(wait) if wait > 0 else 0

    def failed(self, client: str) -> None:
        """Count a wrong key presented by ``client``."""
        self.bucket.take(client)

    @staticmethod
    def message(seconds: int) -> str:
        return (
            f"Too many wrong API keys from this address; retry in {seconds} s "
            "(until then every key it presents is refused)."
        )
