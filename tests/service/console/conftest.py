"""Console helpers: HTTP clients closed at teardown, and signing in over plain HTTP (reading
the CSRF tokens out of the forms)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from fieldwise.service import RunningService

_CSRF = re.compile(r'name="csrf" value="([^"]+)"')

Browse = Callable[..., httpx.Client]
SignIn = Callable[..., httpx.Client]


def csrf_of(html: str) -> str:
    found = _CSRF.search(html)
    assert found, "no CSRF field on the page"
    return found.group(1)


@pytest.fixture
def browse() -> Iterator[Browse]:
    """httpx clients that do not follow redirects, all closed at teardown."""
    made: list[httpx.Client] = []

    def make(service: RunningService, **kwargs: Any) -> httpx.Client:
        kwargs.setdefault("timeout", 60)  # httpx's 5 s default fails on a loaded machine
        client = httpx.Client(base_url=service.base_url, follow_redirects=False, **kwargs)
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()


@pytest.fixture
def sign_in(browse: Browse) -> SignIn:
    """A client holding a console session opened with ``key`` (the admin key by default)."""

    def open_session(service: RunningService, key: str | None = None) -> httpx.Client:
        http = browse(service)
        form = http.get("/console/sign-in")
        response = http.post(
            "/console/sign-in",
            data={"api_key": key or service.api_key, "csrf": csrf_of(form.text), "next": ""},
        )
        assert response.status_code == 303, response.text
        return http

    return open_session
