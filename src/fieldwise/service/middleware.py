"""Pure ASGI middleware: request ids, API-key auth and the request-body size limit.

They are ASGI rather than route dependencies so they cover every path, unknown routes and the
OpenAPI document included, and so an oversized body is refused while streaming.
"""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fieldwise.service.api_errors import error_body
from fieldwise.service.auth import KeyRing

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
    """Refuses, with 401 and the error body, any request without a valid ``x-api-key``."""

    def __init__(self, app: ASGIApp, keyring: KeyRing) -> None:
        self.app = app
        self.keyring = keyring

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        presented = _header(scope, b"x-api-key")
        if not self.keyring.check(presented):
            message = "Missing x-api-key header." if not presented else "Invalid API key."
            await _send_error(send, 401, message, _request_id(scope), {})
            return
        await self.app(scope, receive, send)


class BodyLimitMiddleware:
    """Answers 413 once a request body passes ``max_bytes``, without reading the rest.

    A declared Content-Length over the limit is refused before any byte is read; a chunked body is
    counted as it streams and cut off at the limit.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.max_bytes
        message = f"Request body exceeds the limit of {limit} bytes."
        declared = _header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _send_error(send, 413, message, _request_id(scope), {"connection": "close"})
            return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            msg = await receive()
            if msg["type"] == "http.request":
                received += len(msg.get("body", b""))
                if received > limit:
                    raise _TooLarge
            return msg

        async def tracking_send(msg: Message) -> None:
            nonlocal started
            if msg["type"] == "http.response.start":
                started = True
            await send(msg)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _TooLarge:
            if not started:
                await _send_error(send, 413, message, _request_id(scope), {"connection": "close"})
        except Exception as exc:
            # Starlette wraps errors raised inside receive() while parsing multipart forms.
            if _caused_by_too_large(exc) and not started:
                await _send_error(send, 413, message, _request_id(scope), {"connection": "close"})
            else:
                raise


class _TooLarge(Exception):
    pass


def _caused_by_too_large(exc: BaseException | None) -> bool:
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, _TooLarge):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False
