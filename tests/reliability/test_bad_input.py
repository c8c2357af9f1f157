"""Bad input that once answered 500: each is now a 422 with the error body naming the field,
over real HTTP, and the service stays up."""

from __future__ import annotations

from typing import Any

import httpx

from fieldwise.service import RunningService
from tests.reliability.conftest import raw


def _unprocessable(response: httpx.Response, param: str) -> str:
    assert response.status_code == 422, (response.status_code, response.text[:300])
    error: dict[str, Any] = response.json()["error"]
    assert error["param"] == param
    assert error["request_id"] == response.headers["x-request-id"]
    message: str = error["message"]
    return message


def test_cursors_that_no_list_returned_are_422_not_500(service: RunningService) -> None:
    cursors = [
        "c_" + "9" * 25,  # past a 64-bit integer: overflowed the database driver
        f"c_{2**63}",
        "c_" + "9" * 5000,  # past int()'s 4300-digit limit
        "c_²",  # a Unicode digit int() refuses
        "c_١٢",  # Arabic-Indic digits int() accepts, but no cursor of ours has them
        "c_",
        "c_-1",
    ]
    with raw(service.base_url) as http:
        for cursor in cursors:
            for path in ("/processors", "/files", "/webhooks/deliveries"):
                response = http.get(path, params={"cursor": cursor})
                assert "cursor" in _unprocessable(response, "cursor"), (path, cursor[:40])
        assert http.get("/processors", params={"cursor": f"c_{2**63 - 1}"}).status_code == 200
        assert http.get("/processors").status_code == 200


IDNA_INVALID = [
    "https://" + "a" * 64 + ".example/hook",  # a label over 63 characters
    "https://a..example/hook",  # an empty label
    "https://xn--.example/hook",  # a malformed A-label
    "https://\u2603.example/hook",  # a code point IDNA 2008 disallows
    "https://" + "\u00fc" * 70 + ".example/hook",  # too long once encoded
]


def test_webhook_hosts_that_fail_idna_are_422_not_500(service: RunningService) -> None:
    with raw(service.base_url) as http:
        for url in IDNA_INVALID:
            response = http.post(
                "/webhooks/endpoints", json={"url": url, "events": ["processor.run.completed"]}
            )
            assert "not a valid domain name" in _unprocessable(response, "url"), url
            response = http.post(
                "/parse/file/async", files={"file": ("a.txt", b"hi")}, data={"webhook_url": url}
            )
            assert "not a valid domain name" in _unprocessable(response, "webhook_url"), url
        assert http.get("/webhooks/endpoints").json()["data"] == []
        assert http.get("/processors").status_code == 200  # still up
