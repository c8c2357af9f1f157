"""Pure ASGI middleware: request ids, API-key auth, the rate limit and the request-body size
limit.

They are ASGI rather than route dependencies so they cover every path, unknown routes and the
OpenAPI document included, and so an oversized body is refused while streaming.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fieldwise.service.http.auth import Principal, hash_key, refusal
from fieldwise.service.http.errors import error_body
from fieldwise.service.http.ratelimit import AuthFailures, TokenBucket, retry_after

_INCOMING_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


async def _send_error(
    send: Send,
    status: int,
    message: str,
    request_id: str | None,
    headers: dict[str, str],
    *,
    retryable: bool = False,
) -> None:
    body = json.dumps(error_body(status, message, request_id, retryable=retryable)).encode()
    raw_headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    raw_headers += [(k.encode(), v.encode()) for k, v in headers.items()]
    await send({"type": "http.response.start", "status": status, "headers": raw_headers})
    await send({"type": "http.response.body", "body": body})


def _request_id(scope: Scope) -> str | None:
    state: dict[str, Any] = scope.get("state", {})
    value = state.get("request_id")
    return str(value) if value else None


class RequestIdMiddleware:
    """Gives every request an id (the caller's ``x-request-id`` if sane) and echoes it back."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = _header(scope, b"x-request-id")
        request_id = (
            incoming
            if incoming and _INCOMING_ID.match(incoming)
            else ("req_" + secrets.token_hex(12))
        )
        scope.setdefault("state", {})["request_id"] = request_id

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"x-request-id", request_id.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_id)


class ApiKeyMiddleware:
    """Refuses, with the error body, a request without a valid ``x-api-key`` (401) or one its
    key's scope does not allow (403); the :class:`Principal` goes to ``request.state``.

    Paths under ``exempt`` (the console: it signs in into a session of its own) pass through.
    With ``failures``, a wrong key counts against its client address, and an address out of
    tries is answered 429 whatever key it presents.
    """

    def __init__(
        self,
        app: ASGIApp,
        authenticate: Callable[[str | None], Principal | None],
        exempt: tuple[str, ...] = (),
        operator: Callable[[str], Principal | None] | None = None,
        failures: AuthFailures | None = None,
    ) -> None:
        self.app = app
        self.authenticate = authenticate
        self.exempt = exempt
        self.failures = failures
        # The operator's keys need no database: checked on the loop, no thread hop.
        self.operator = operator

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or _under(scope["path"], self.exempt):
            await self.app(scope, receive, send)
            return
        presented = _header(scope, b"x-api-key")
        principal = None
        client = ""
        if presented and self.failures is not None:
            # Checked before the key: a 429 for a wrong key but not for the right one would
            # tell a guesser which is which.
            client = client_address(scope)
            seconds = self.failures.retry_after(client)
            if seconds:
                message = self.failures.message(seconds)
                headers = {"retry-after": str(seconds)}
                await _send_error(send, 429, message, _request_id(scope), headers, retryable=True)
                return
        if presented:
            principal = self.operator(presented) if self.operator is not None else None
            if principal is None:  # a stored key is a database lookup: off the event loop
                principal = await run_in_threadpool(self.authenticate, presented)
        if principal is None:
            if presented and self.failures is not None:
                self.failures.failed(client)
            message = "Missing x-api-key header." if not presented else "Invalid API key."
            await _send_error(send, 401, message, _request_id(scope), {})
            return
        denied = refusal(principal.scope, scope["method"], scope["path"])
        if denied:
            await _send_error(send, 403, denied, _request_id(scope), {})
            return
        scope.setdefault("state", {})["principal"] = principal
        await self.app(scope, receive, send)


def client_address(scope: Scope) -> str:
    """The client's address (the proxy's client, when uvicorn trusts the proxy's headers)."""
    client = scope.get("client")
    return str(client[0]) if client else ""


def _under(path: str, prefixes: tuple[str, ...]) -> bool:
    return any(path == p or path.startswith(p + "/") for p in prefixes)


class RateLimitMiddleware:
    """Answers 429 (with ``Retry-After``) to a key that is out of tokens; runs after auth."""

    def __init__(self, app: ASGIApp, bucket: TokenBucket) -> None:
        self.app = app
        self.bucket = bucket

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # Auth ran first: a request here either has a valid key or is on an exempt path (the
        # console's pages), which counts against its client address, not one bucket for all.
        state: dict[str, object] = scope.get("state", {})
        if state.get("principal") is not None:
            key = hash_key(_header(scope, b"x-api-key") or "")
        else:
            key = "client " + client_address(scope)
        wait = self.bucket.take(key)
        if wait > 0:
            seconds = retry_after(wait)
            message = f"Rate limit exceeded; retry in {seconds} s."
            headers = {"retry-after": str(seconds)}
            await _send_error(send, 429, message, _request_id(scope), headers, retryable=True)
            return
        await self.app(scope, receive, send)


class BodyLimitMiddleware:
    """Answers 413 once a request body passes ``max_bytes``, without reading the rest.

    A declared Content-Length over the limit is refused before any byte is read; a chunked body is
    counted as it streams and cut off at the limit.
    """

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int,
        *,
        max_json_bytes: int | None = None,
        read_timeout: float | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_json_bytes = max_json_bytes or max_bytes
        # A whole-body deadline: a client trickling a byte at a time would pass any idle timeout.
        self.read_timeout = read_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        multipart = (_header(scope, b"content-type") or "").startswith("multipart/")
        limit = self.max_bytes if multipart else min(self.max_bytes, self.max_json_bytes)
        message = f"Request body exceeds the limit of {limit} bytes."
        declared = _header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _send_error(send, 413, message, _request_id(scope), {"connection": "close"})
            return
        received = 0
        started = False
        body_done = False
        # Set when the body broke a limit. Whatever the app answers after that (FastAPI turns an
        # error raised while reading a JSON body into its own 400) is replaced by 408/413.
        cut: tuple[int, str] | None = None
        deadline = None if self.read_timeout is None else time.monotonic() + self.read_timeout

        async def limited_receive() -> Message:
            nonlocal received, body_done, cut
            if body_done or deadline is None:
                msg = await receive()
            else:
                try:
                    msg = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
                except TimeoutError:
                    cut = (408, f"Request body not received within {self.read_timeout:g} s.")
                    raise _BodyLimit from None
            if msg["type"] == "http.request":
                received += len(msg.get("body", b""))
                body_done = not msg.get("more_body", False)
                if received > limit:
                    cut = (413, message)
                    raise _BodyLimit
            return msg

        async def answer_cut() -> None:
            nonlocal started
            if cut is not None and not started:
                started = True
                await _send_error(send, *cut, _request_id(scope), {"connection": "close"})

        async def tracking_send(msg: Message) -> None:
            nonlocal started
            if cut is not None:
                await answer_cut()
                return
            if msg["type"] == "http.response.start":
                started = True
            await send(msg)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except Exception:
            # Starlette wraps errors raised inside receive() while parsing multipart forms.
            if cut is None or started:
                raise
        await answer_cut()


class _BodyLimit(Exception):
    """Raised inside ``receive`` to stop the app reading a body that broke a limit."""
