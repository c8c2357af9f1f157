"""The engines the service calls in its own process are the ones its state holds: the real
ones by default (loaded on first call), or those ``create_app`` was given."""

from __future__ import annotations

from typing import Any

import httpx

from fieldwise.service.engines.parsing import ParsedDocument
from fieldwise.service.state import Engines
from tests.conftest import ServiceFactory


def test_the_default_parse_engine_is_the_real_parser() -> None:
    doc = Engines().parse(b"Invoice No: INV-7\nTotal: 7.00 EUR\n", filename="a.txt")
    assert isinstance(doc, ParsedDocument)
    assert "INV-7" in " ".join(line.text for page in doc.pages for line in page.lines)


def test_a_synchronous_parse_calls_the_engine_the_service_was_given(
    start_service: ServiceFactory,
) -> None:
    seen: list[tuple[bytes, Any]] = []
    real = Engines()

    def parse(data: bytes, **options: Any) -> ParsedDocument:
        seen.append((data, options.get("filename")))
        return real.parse(data, **options)

    service = start_service(engines=Engines(parse=parse))
    body = b"Invoice No: INV-7\nTotal: 7.00 EUR\n"
    answer = httpx.post(
        f"{service.base_url}/parse/file",
        files={"file": ("a.txt", body, "text/plain")},
        data={"format": "text"},
        headers={"x-api-key": service.api_key},
        timeout=60,
    )
    assert answer.status_code == 201, answer.text
    assert answer.json()["status"] == "succeeded"
    assert seen == [(body, "a.txt")]
