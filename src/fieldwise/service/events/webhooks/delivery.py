"""One HTTP attempt of one delivery: POST the body, signed, with a hard time budget."""

from __future__ import annotations

import time
from dataclasses import dataclass

import httpx

from fieldwise._signature import SIGNATURE_HEADER
from fieldwise.service.events.webhooks.ssrf import UnsafeUrl, resolve_target

#: The receiver must answer within this many seconds (spec, section 8).
DEFAULT_TIMEOUT = 10.0
_EXCERPT = 500


@dataclass(frozen=True)
class AttemptResult:
    """What one attempt got: a status code, or an error (refused, timeout, connection)."""

    status_code: int | None
    latency_ms: float
    error: str | None
    response_excerpt: str | None

    @property
    def ok(self) -> bool:
        return self.error is None and self.status_code is not None and self.status_code < 300


def post_signed(
    url: str,
    body: bytes,
    signature: str,
    *,
    event_id: str,
    event_type: str,
    allow_http: tuple[str, ...],
    timeout: float = DEFAULT_TIMEOUT,
) -> AttemptResult:
    """POST ``body`` to ``url``; never raises. Redirects are not followed (a 3xx fails)."""
    started = time.monotonic()

    def elapsed_ms() -> float:
        return round((time.monotonic() - started) * 1000, 1)

    try:
        target = resolve_target(url, allow_http)
    except UnsafeUrl as exc:
        return AttemptResult(None, elapsed_ms(), f"refused: {exc}", None)
    headers = {
        "content-type": "application/json",
        "user-agent": "fieldwise-webhooks/1",
        SIGNATURE_HEADER: signature,
        "x-service-event-id": event_id,
        "x-service-event-type": event_type,
    }
    if target.host_header:
        headers["host"] = target.host_header
    extensions = {"sni_hostname": target.sni_hostname} if target.sni_hostname else {}
    # trust_env=False: a proxy from the environment must not carry (or reroute) deliveries.
    try:
        with httpx.Client(timeout=timeout, follow_redirects=False, trust_env=False) as http:
            request = http.build_request(
                "POST", target.url, content=body, headers=headers, extensions=extensions
            )
            response = http.send(request, stream=True)
            try:
                excerpt = _read_excerpt(response, started, timeout)
            finally:
                response.close()
    except httpx.TimeoutException:
        return AttemptResult(None, elapsed_ms(), f"timeout: no answer within {timeout:g} s", None)
    except httpx.HTTPError as exc:
        return AttemptResult(None, elapsed_ms(), f"connection: {type(exc).__name__}: {exc}", None)
    latency = elapsed_ms()
    if latency > timeout * 1000:
        # Per-operation timeouts let a slow trickle run past the budget: the whole answer counts.
        return AttemptResult(
            response.status_code, latency, f"timeout: answer took over {timeout:g} s", excerpt
        )
    error = None
    if response.is_redirect:
        location = response.headers.get("location", "")
        error = f"redirect {response.status_code} to {location!r} not followed"
    elif not 200 <= response.status_code < 300:
        error = f"HTTP {response.status_code}"
    return AttemptResult(response.status_code, latency, error, excerpt)


def _read_excerpt(response: httpx.Response, started: float, timeout: float) -> str:
    """The first bytes of the answer, reading no more than needed and no longer than allowed."""
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size >= _EXCERPT or time.monotonic() - started > timeout:
            break
    return b"".join(chunks)[:_EXCERPT].decode("utf-8", "replace")
