"""The one place where httpx failures and error responses become fieldwise errors."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from fieldwise._errors import (
    APIStatusError,
    AuthenticationError,
    ConflictError,
    NotFoundError,
    RateLimitError,
    ServerError,
    TransportError,
    UnprocessableError,
)

_BY_STATUS: dict[int, type[APIStatusError]] = {
    400: UnprocessableError,
    401: AuthenticationError,
    404: NotFoundError,
    409: ConflictError,
    413: UnprocessableError,
    415: UnprocessableError,
    422: UnprocessableError,
    429: RateLimitError,
}


@contextmanager
def map_transport_errors(request_desc: str) -> Iterator[None]:
    """Translate httpx transport failures (refused, reset, timeout, protocol) once, here.

    The message names the whole URL tried: "connection refused" alone does not say which
    service, and the base URL may have come from a flag, the environment or the default.
    """
    try:
        yield
    except httpx.TimeoutException as exc:
        raise TransportError(
            f"{_tried(exc, request_desc)}: timed out ({type(exc).__name__})"
        ) from exc
    except (httpx.TransportError, httpx.DecodingError) as exc:
        raise TransportError(f"{_tried(exc, request_desc)}: {type(exc).__name__}: {exc}") from exc


def _tried(exc: httpx.RequestError, request_desc: str) -> str:
    """``METHOD URL`` of the failed request, else ``request_desc`` (an error raised without
    its request)."""
    try:
        request = exc.request
    except RuntimeError:  # httpx raises this when the error carries no request
        return request_desc
    return f"{request.method} {request.url}"


def status_error(response: httpx.Response) -> APIStatusError:
    """The typed error for a 4xx/5xx response, filled from the error body when there is one."""
    body: Any = None
    try:
        body = response.json()
    except ValueError:
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        error = {}
    status = response.status_code
    cls = _BY_STATUS.get(status, ServerError if status >= 500 else APIStatusError)
    message = str(error.get("message") or response.reason_phrase or "request failed")
    return cls(
        message,
        status_code=status,
        code=str(error.get("code") or "error"),
        request_id=error.get("request_id") or response.headers.get("x-request-id"),
        param=error.get("param"),
        retryable=bool(error.get("retryable", status == 429 or status >= 500)),
        request=response.request,
        response=response,
    )
