"""Helpers for run tests: small text invoices, a processor with a published version, and
polling a run until it reaches a terminal state."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from fieldwise.client import Client, ops

CONFIG = {
    "fields": [
        {"name": "invoice_number", "type": "string", "labels": ["Invoice No"]},
        {"name": "total", "type": "currency", "labels": ["Total"]},
    ]
}
TERMINAL = ("succeeded", "failed", "canceled")


def invoice(number: int) -> bytes:
    """A plain-text invoice whose number and total are known."""
    return f"ACME GmbH\nInvoice No: INV-{number:04d}\nTotal: {number}.50 EUR\n".encode()


def make_processor(client: Client, name: str = "inv", config: dict[str, Any] | None = None) -> str:
    processor = client.create_processor(name)
    version = client.create_version(processor.id, config or CONFIG)
    client.publish_version(processor.id, version.id)
    return processor.id


def wait_for(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    """Poll ``check`` until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("condition not reached in time")


def wait_run(client: Client, processor_id: str, run_id: str, timeout: float = 20.0) -> Any:
    def done() -> Any:
        run = client.call(ops.get_run(processor_id, run_id))
        return run if run.status in TERMINAL else None

    return wait_for(done, timeout)
