"""Every route refuses a missing or wrong key with 401 and the error body."""

from __future__ import annotations

import re

import httpx
import pytest

from fieldwise.service import RunningService
from fieldwise.service.app import app_state


def _concrete(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "x", path)


def _routes(service: RunningService) -> list[tuple[str, str]]:
    """Every operation of the OpenAPI document, so a new route is covered the day it lands."""
    paths = service.app.openapi()["paths"]  # type: ignore[attr-defined]
    found = [("GET", "/openapi.json"), ("GET", "/no-such-route")]
    for path, operations in paths.items():
        found += [(method.upper(), _concrete(path)) for method in sorted(operations)]
    # Routes left out of the schema (include_in_schema=False) are guarded all the same.
    for route in service.app.routes:  # type: ignore[attr-defined]
        for method in sorted(set(getattr(route, "methods", None) or ()) - {"HEAD"}):
            found.append((method, _concrete(route.path)))
    # The console answers with its own sign-in redirect
    # (tests/service/console/test_console_auth.py).
    return sorted({(m, p) for m, p in found if not p.startswith("/console")})


@pytest.mark.parametrize("headers", [{}, {"x-api-key": "wrong"}, {"x-api-key": ""}])
def test_every_route_refuses_without_a_valid_key(
    service: RunningService, headers: dict[str, str]
) -> None:
    routes = _routes(service)
    assert len(routes) > 15
    http = httpx.Client(base_url=service.base_url, headers=headers, timeout=60)
    for method, path in routes:
        response = http.request(method, path)
        assert response.status_code == 401, (method, path)
        error = response.json()["error"]
        assert error["code"] == "unauthorized"
        assert error["request_id"] == response.headers["x-request-id"]
        assert "wrong" not in error["message"]
    http.close()


def test_valid_key_passes_and_request_id_is_echoed(service: RunningService) -> None:
    response = httpx.get(
        service.base_url + "/processors",
        headers={"x-api-key": service.api_key, "x-request-id": "trace-42"},
        timeout=60,
    )
    assert response.status_code == 200
    assert response.headers["x-request-id"] == "trace-42"


def test_keys_are_stored_hashed_and_compared_by_hash(service: RunningService) -> None:
    keyring = app_state(service.app).keyring  # type: ignore[arg-type]
    assert keyring.check(service.api_key)
    assert not keyring.check(service.api_key + "x")
    assert not keyring.check(None)
