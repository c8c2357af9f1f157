"""The operator's keys are checked on the event loop: the stored-key lookup (a database read,
run in a thread) is asked only for a key the operator's ring does not hold."""

from __future__ import annotations

import asyncio
from typing import Any

from fieldwise.service.http.auth import KeyRing, Principal, hash_key
from fieldwise.service.http.middleware import ApiKeyMiddleware


def _call(middleware: ApiKeyMiddleware, key: str) -> tuple[list[str], int]:
    reached: list[str] = []
    sent: list[int] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["state"]["principal"].scope)
        await send({"type": "http.response.start", "status": 200, "headers": []})

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            sent.append(message["status"])

    middleware.app = app
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/files",
        "headers": [(b"x-api-key", key.encode())],
    }
    asyncio.run(middleware(scope, receive, send))
    return reached, sent[0]


def test_an_operator_key_never_reaches_the_stored_key_lookup() -> None:
    ring = KeyRing([hash_key("fw_operator_key_0123456789")])
    looked_up: list[str | None] = []

    def operator(presented: str) -> Principal | None:
        return Principal(key_id=None, scope="admin") if ring.check(presented) else None

    def stored(presented: str | None) -> Principal | None:
        looked_up.append(presented)
        return Principal(key_id="key_1", scope="read") if presented == "fw_stored" else None

    middleware = ApiKeyMiddleware(None, authenticate=stored, operator=operator)  # type: ignore[arg-type]
    assert _call(middleware, "fw_operator_key_0123456789") == (["admin"], 200)
    assert looked_up == []
    assert _call(middleware, "fw_stored") == (["read"], 200)
    assert _call(middleware, "fw_wrong") == ([], 401)
    assert looked_up == ["fw_stored", "fw_wrong"]
