"""A small evaluation set of plain-text invoices whose outcomes are known by hand.

The version extracts ``invoice_number`` and ``total``. Per item (expected → extracted):

- ``a``  INV-0001 / 12.50  → INV-0001 / 12.50      both correct
- ``b``  INV-0002 / 9.99   → INV-0002 / 7.00       number correct, total wrong
- ``c``  INV-0003 / 3.00   → INV-0003 / (nothing)  number correct, total missed
- ``d``  INV-0004 / (none) → INV-0004 / 4.50       number correct, total spurious
- ``e``  INV-0005 / 5.00   → the run fails (a broken PDF): both missed

So 10 cells: 5 correct, 1 wrong, 3 missed, 1 spurious. Accuracy 5/10, precision 5/7,
recall 5/9, F1 0.625, all fields correct in 1 of 5 documents.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from fieldwise.client import Client, ops
from fieldwise.client._models import EvaluationRun

CONFIG = {
    "fields": [
        {"name": "invoice_number", "type": "string", "labels": ["Invoice No"]},
        {"name": "total", "type": "currency", "labels": ["Total"]},
    ]
}
TERMINAL = ("succeeded", "failed", "canceled")
BROKEN_PDF = b"%PDF-1.4\nthis is not a pdf at all\n"

DOCUMENTS: dict[str, tuple[bytes, str, dict[str, Any]]] = {
    "a": (
        b"ACME GmbH\nInvoice No: INV-0001\nTotal: 12.50\n",
        "a.txt",
        {"invoice_number": "INV-0001", "total": 12.5},
    ),
    "b": (
        b"ACME GmbH\nInvoice No: INV-0002\nTotal: 7.00\n",
        "b.txt",
        {"invoice_number": "INV-0002", "total": 9.99},
    ),
    "c": (
        b"ACME GmbH\nInvoice No: INV-0003\n",
        "c.txt",
        {"invoice_number": "INV-0003", "total": 3},
    ),
    "d": (
        b"ACME GmbH\nInvoice No: INV-0004\nTotal: 4.50\n",
        "d.txt",
        {"invoice_number": "INV-0004"},
    ),
    "e": (BROKEN_PDF, "e.pdf", {"invoice_number": "INV-0005", "total": 5}),
}


@dataclass(frozen=True)
class World:
    eval_set_id: str
    processor_id: str
    version_id: str
    items: dict[str, str]  # name → item id


def make_processor(client: Client, name: str = "inv", *, publish: bool = True) -> tuple[str, str]:
    processor = client.create_processor(name)
    version = client.create_version(processor.id, CONFIG)
    if publish:
        client.publish_version(processor.id, version.id)
    return processor.id, version.id


def make_set(
    client: Client, names: str = "abcde", set_name: str = "invoices"
) -> tuple[str, dict[str, str]]:
    eval_set = client.create_evaluation_set(set_name)
    made = {}
    for name in names:
        content, filename, truth = DOCUMENTS[name]
        file_id = client.upload_file(content, filename=filename).id
        made[name] = client.call(ops.create_item(eval_set.id, file_id, truth)).id
    return eval_set.id, made


@pytest.fixture
def world(client: Client) -> World:
    processor_id, version_id = make_processor(client)
    eval_set_id, items = make_set(client)
    return World(eval_set_id, processor_id, version_id, items)


def wait_for(check: Callable[[], Any], timeout: float = 120.0) -> Any:
    """Poll ``check`` until it returns something truthy; the bound only guards against a hang
    (the first scoring imports scipy, which alone took over 20 s on a loaded machine)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("condition not reached in time")


def wait_evaluation(client: Client, eval_set_id: str, run_id: str) -> EvaluationRun:
    def done() -> EvaluationRun | None:
        run = client.call(ops.get_evaluation_run(eval_set_id, run_id))
        return run if run.status in TERMINAL else None

    result: EvaluationRun = wait_for(done)
    return result
