"""When to retry a call and how long to wait: shared by the sync and async clients."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import httpx

from fieldwise._errors import APIStatusError, ClientError, RateLimitError, TransportError
from fieldwise.client._ops import Op

# A POST answered with one of these was not processed, so repeating it cannot duplicate work.
_NOT_PROCESSED = frozenset({429, 502, 503, 504})


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 4
    base_delay: float = 0.25
    max_delay: float = 8.0

    def delay(self, op: Op[Any], attempt: int, error: ClientError) -> float | None:
        """Seconds to wait before retry number ``attempt + 1``, or None to give up."""
        if attempt >= self.max_retries or not self._retryable(op, error):
            return None
        if isinstance(error, RateLimitError) and error.retry_after is not None:
            return float(min(max(error.retry_after, 0.0), 60.0))
        backoff = min(self.max_delay, self.base_delay * (2.0**attempt))
        return backoff * (0.5 + random.random() / 2)  # jitter spreads retry storms

    def _retryable(self, op: Op[Any], error: ClientError) -> bool:
        if op.idempotent or "Idempotency-Key" in op.headers:
            if isinstance(error, APIStatusError):
                return error.status_code == 429 or error.status_code >= 500
            return isinstance(error, TransportError)
        return surely_unprocessed(error)


def surely_unprocessed(error: ClientError) -> bool:
    """Whether the request that failed with ``error`` surely was not processed, so that
    sending it again cannot do its work twice: it was answered 429, 502, 503 or 504, or it
    never reached the server (the connection failed). A dropped connection, a cut body, a
    timeout or another 5xx may come after the work was done."""
    if isinstance(error, APIStatusError):
        return error.status_code in _NOT_PROCESSED
    if isinstance(error, TransportError):
        return isinstance(error.__cause__, httpx.ConnectError | httpx.ConnectTimeout)
    return False
