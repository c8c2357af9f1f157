"""Helpers for reliability tests: a seeded service (one of every resource), waiting, and the
trivial python engine used by the load and fault tests (``tests.reliability.engines``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from fieldwise.client import Client, ops
from fieldwise.service.state import Engines
from tests.conftest import TEST_KEY

TERMINAL = ("succeeded", "failed", "canceled")
CONFIG = {
    "fields": [
        {"name": "invoice_number", "type": "string", "labels": ["Invoice No"]},
        {"name": "total", "type": "currency", "labels": ["Total"]},
    ]
}
TRIVIAL = {"engine": "python", "entrypoint": "tests.reliability.engines:echo"}


@pytest.fixture
def engines() -> Engines:
    """The engines the drills' service calls: the real ones. A drill that must hold or watch
    an engine call overrides this fixture in its module and hands the service its own."""
    return Engines()


def invoice(number: int) -> bytes:
    return f"ACME GmbH\nInvoice No: INV-{number:04d}\nTotal: {number}.50 EUR\n".encode()


def wait_for(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    """Poll ``check`` until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("condition not reached in time")


def make_processor(client: Client, name: str, config: dict[str, Any]) -> tuple[str, str]:
    processor = client.create_processor(name)
    version = client.create_version(processor.id, config)
    client.publish_version(processor.id, version.id)
    return processor.id, version.id


def seed(client: Client) -> dict[str, list[str]]:
    """One of every resource, so fuzzed paths reach past the 404 of an unknown id.

    Keys are the path parameter names of the OpenAPI document.
    """
    file_id = client.upload_file(invoice(1), filename="a.txt").id
    processor_id, version_id = make_processor(client, "seeded", CONFIG)
    run = client.call(ops.create_run(processor_id, file_id))
    wait_for(lambda: client.call(ops.get_run(processor_id, run.id)).status in TERMINAL)
    eval_set = client.create_evaluation_set("seeded")
    item = client.call(ops.create_item(eval_set.id, file_id, {"invoice_number": "INV-0001"}))
    workflow = client.call(
        ops.create_workflow(
            "seeded",
            [
                {"id": "t", "type": "trigger"},
                {"id": "p", "type": "processor", "processor_id": processor_id},
            ],
        )
    )
    wf_run = client.call(ops.create_workflow_run(workflow.id, file_id))
    batch = client.call(ops.create_batch_run(workflow.id, [file_id]))
    endpoint = client.call(
        ops.create_webhook_endpoint("http://127.0.0.1:9/hook", ["processor.run.completed"])
    )
    delivery = client.call(ops.send_test_webhook("processor.run.completed", endpoint.id))
    parse_run = client.call(ops.parse_file(invoice(2), filename="b.txt"))
    return {
        "file_id": [file_id],
        "processor_id": [processor_id],
        "version_id": [version_id],
        "run_id": [run.id, wf_run.id],
        "eval_set_id": [eval_set.id],
        "item_id": [item.id],
        "workflow_id": [workflow.id],
        "batch_id": [batch.id],
        "endpoint_id": [endpoint.id],
        "delivery_id": [delivery.id],
        "parse_run_id": [parse_run.id],
    }


def raw(base_url: str, **kwargs: Any) -> httpx.Client:
    """A plain httpx client with the test key, for inputs the typed client refuses to send."""
    headers = {"x-api-key": TEST_KEY, **kwargs.pop("headers", {})}
    kwargs.setdefault("timeout", 60)  # httpx's 5 s default fails tests on a loaded machine
    return httpx.Client(base_url=base_url, headers=headers, **kwargs)


# The runner's world (a synced text dataset and a processor with two versions), reused here.
from tests.runner.conftest import MakeWorld, make_world  # noqa: E402, F401
