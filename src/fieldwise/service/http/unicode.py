"""Lone UTF-16 surrogates: refused at the edge, never able to break a read.

JSON may spell half of a surrogate pair (``"\\ud800"``); Python decodes it to a string that no
UTF-8 encoder accepts, so one such value stored in a free-form object (metadata, ground truth,
labels, a version config) used to make every later answer that held it a 500.

- :class:`LoneSurrogateMiddleware` refuses any JSON request body holding one (422, ``param``
  naming the field), for every route at once;
- :func:`refuse_lone_surrogates` does the same for JSON that arrives inside a form field;
- the database's JSON reader (:func:`~fieldwise.service.store.json_reader.safe_json_loads`)
  hands back whatever was stored before (or by a path that does not check) with U+FFFD in
  place of each lone surrogate.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fieldwise.service.http.errors import ApiError, error_body
from fieldwise.service.store.json_reader import LONE_SURROGATE as _LONE
from fieldwise.service.store.json_reader import REPLACEMENT as _REPLACEMENT
from fieldwise.service.store.json_reader import SURROGATE_ESCAPE as _ESCAPE

__all__ = [
    "LoneSurrogateMiddleware",
    "lone_surrogate_path",
    "refuse_lone_surrogates",
]


def lone_surrogate_path(value: Any, prefix: str = "") -> str | None:
    """The dotted path of the first string (value or key) in ``value`` holding a lone
    surrogate, or None. The path of a bad key ends in that key with U+FFFD for the surrogate."""
    if isinstance(value, str):
        return (prefix or "body") if _LONE.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            here = f"{prefix}.{key}" if prefix else str(key)
            if isinstance(key, str) and _LONE.search(key):
                return _LONE.sub(_REPLACEMENT, here)
            found = lone_surrogate_path(item, here)
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = lone_surrogate_path(item, f"{prefix}.{index}" if prefix else str(index))
            if found is not None:
                return found
    return None


def _message(path: str) -> str:
    return (
        f"{path}: holds a lone UTF-16 surrogate (such as \\ud800), which is not valid Unicode "
        "text; send the whole pair or the character itself."
    )


def refuse_lone_surrogates(value: Any, param: str) -> None:
    """A 422 naming the field when ``value`` (parsed JSON under ``param``) holds one."""
    path = lone_surrogate_path(value, param)
    if path is not None:
        raise ApiError(422, _message(path), param=path)


def _is_json(scope: Scope) -> bool:
    """Whether FastAPI would read this request's body as JSON (no type, or */json, */*+json)."""
    for key, value in scope.get("headers", []):
        if key == b"content-type":
            kind = str(value.decode("latin-1")).split(";", 1)[0].strip().lower()
            return kind.startswith("application/") and (
                kind == "application/json" or kind.endswith("+json")
            )
    return True


class LoneSurrogateMiddleware:
    """Answers 422 (``param`` naming the field) to a JSON body that holds a lone surrogate.

    Only a body whose bytes spell a surrogate escape is parsed here; every other body is
    passed on untouched. Sits inside the body-limit middleware, which bounds what it buffers.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD") or not _is_json(scope):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left: let the app see it
                await self.app(scope, _replay([message], receive), send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        path = _bad_path(body)
        if path is not None:
            state: dict[str, Any] = scope.get("state", {})
            request_id = state.get("request_id")
            payload = error_body(422, _message(path), request_id, param=path)
            encoded = json.dumps(payload).encode()
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(encoded)).encode()),
            ]
            await send({"type": "http.response.start", "status": 422, "headers": headers})
            await send({"type": "http.response.body", "body": encoded})
            return
        whole: Message = {"type": "http.request", "body": body, "more_body": False}
        await self.app(scope, _replay([whole], receive), send)


def _bad_path(body: bytes) -> str | None:
    if not _ESCAPE.search(body):
        return None
    try:
        value = json.loads(body)
    except ValueError:  # malformed: FastAPI answers its own 400
        return None
    return lone_surrogate_path(value)


def _replay(messages: list[Message], receive: Receive) -> Receive:
    pending = list(messages)

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed
