"""Bad input that once answered 500: each is now a 422 with the error body naming the field,
over real HTTP, and the service stays up."""

from __future__ import annotations

from typing import Any

import httpx

from fieldwise.service import RunningService
from tests.conftest import ServiceFactory
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


def _csv(rows: int, columns: int) -> bytes:
    header = ",".join(f"h{c}" for c in range(columns))
    body = "\n".join(",".join(f"{r}.{c}" for c in range(columns)) for r in range(rows))
    return f"{header}\n{body}\n".encode()


def test_csv_past_the_column_limit_is_refused_naming_the_limit(service: RunningService) -> None:
    # Wider than the default bound: once parsed in time quadratic in the columns.
    with raw(service.base_url, timeout=120) as http:
        response = http.post("/parse/file", files={"file": ("wide.csv", _csv(1, 10_001))})
        assert response.status_code == 422, response.text[:300]
        error = response.json()["error"]
        assert error["message"].endswith(
            "CSV columns in a row: 10001; the limit is 10000 (setting FIELDWISE_MAX_CSV_COLUMNS)"
        )
        assert http.get("/processors").status_code == 200  # still up


def test_csv_cells_are_bounded_and_a_table_within_the_bounds_parses(
    start_service: ServiceFactory,
) -> None:
    service = start_service(max_csv_columns=50, max_csv_cells=1_000)
    with raw(service.base_url, timeout=120) as http:
        refused = http.post("/parse/file", files={"file": ("long.csv", _csv(100, 10))})
        assert refused.status_code == 422, refused.text[:300]
        assert refused.json()["error"]["message"].endswith(
            "CSV cells (rows x widest row): 1010; the limit is 1000 "
            "(setting FIELDWISE_MAX_CSV_CELLS)"
        )
        wide = http.post("/parse/file", files={"file": ("wide.csv", _csv(1, 51))})
        assert "FIELDWISE_MAX_CSV_COLUMNS" in wide.json()["error"]["message"]
        within = http.post("/parse/file", files={"file": ("ok.csv", _csv(19, 50))})
        assert within.status_code == 201, within.text[:300]
        markdown = within.json()["output"]
        assert markdown.splitlines()[0] == "| " + " | ".join(f"h{c}" for c in range(50)) + " |"
        assert len(markdown.splitlines()) == 21
