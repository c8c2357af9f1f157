"""Secrets stay secret: API keys never reach logs, error bodies, reports or disk; webhook
signing secrets are shown only in the create and rotate answers.

(Every route refusing a missing or wrong key is tests/service/http/test_auth.py: it walks the
OpenAPI route table, so a new route without auth fails there.)
"""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import httpx
import pytest

from fieldwise.client import Client, ops
from fieldwise.runner import run_versions
from tests.conftest import TEST_KEY, ServiceFactory
from tests.reliability.conftest import (
    CONFIG,
    TERMINAL,
    MakeWorld,
    invoice,
    make_processor,
    wait_for,
)

WRONG_KEY = "fw_wrong_but_plausible_key_abcdef123456"
BROKEN = {"engine": "python", "entrypoint": "tests.reliability.engines:crash"}


def _exercise(base_url: str) -> list[httpx.Response]:
    """Good and bad requests of every kind: successes, 4xx of each sort, unknown routes."""
    responses = []
    for key in (TEST_KEY, WRONG_KEY, f"{TEST_KEY}x", ""):
        with httpx.Client(base_url=base_url, headers={"x-api-key": key}, timeout=60) as http:
            responses += [
                http.get("/processors"),
                http.get("/processors/nope"),
                http.post("/processors", json={"name": ""}),
                http.post(
                    "/processors", content=b"{bad", headers={"content-type": "application/json"}
                ),
                http.post("/files/upload", files={"file": ("a.txt", invoice(1))}),
                http.get("/no-such-route"),
                http.get("/openapi.json"),
            ]
    return responses


def _malformed(base_url: str) -> None:
    """A request uvicorn cannot parse, carrying the key: the server logs the bad request."""
    host, port = base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(f"GET / HTTP/1.1\r\nx-api-key: {TEST_KEY}\r\nno colon here\r\n\r\n".encode())
        sock.recv(4096)


def test_keys_never_appear_in_logs_or_answers(
    start_service: ServiceFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    service = start_service(webhook_allow_http=("127.0.0.1",), allow_python_engines=True)
    with Client(service.base_url, service.api_key, max_retries=0) as client:
        processor_id, _ = make_processor(client, "inv", CONFIG)
        broken, _ = make_processor(client, "broken", BROKEN)
        file_id = client.upload_file(invoice(1), filename="a.txt").id
        endpoint = client.call(
            ops.create_webhook_endpoint("http://127.0.0.1:9/hook", ["processor.run.completed"])
        )
        client.call(ops.send_test_webhook("processor.run.completed", endpoint.id))
        for pid in (processor_id, broken):
            run = client.call(ops.create_run(pid, file_id))
            wait_for(lambda: client.call(ops.get_run(pid, run.id)).status in TERMINAL)  # noqa: B023
    uvicorn_log = logging.getLogger("uvicorn")  # uvicorn's loggers do not propagate to root
    uvicorn_log.addHandler(caplog.handler)
    try:
        responses = _exercise(service.base_url)
        _malformed(service.base_url)
    finally:
        uvicorn_log.removeHandler(caplog.handler)
    server_side = {r.name for r in caplog.records if r.name.startswith(("uvicorn", "fieldwise"))}
    assert server_side, "nothing logged by the service: the check below would prove nothing"
    assert {r.status_code for r in responses} >= {200, 201, 400, 401, 404, 422}
    logged = "\n".join(
        f"{record.getMessage()} {record.exc_text or ''} {record.args!r}"
        for record in caplog.records
    )
    for secret in (TEST_KEY, WRONG_KEY):
        assert secret not in logged
        for response in responses:
            assert secret not in response.text
            assert secret not in str(response.headers)


def test_keys_are_not_written_to_disk_or_results(make_world: MakeWorld, tmp_path: Path) -> None:
    world = make_world(3)
    run_versions(
        world.connection(),
        eval_set="texts",
        processor_id=world.processor_id,
        versions=[world.v1, world.v2],
    )
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.suffix == ".db" for p in files)  # the service database is among them
    assert any(".fieldwise" in p.parts for p in files)  # and the runner's results
    for path in files:
        assert TEST_KEY.encode() not in path.read_bytes(), path


def test_webhook_secrets_are_shown_only_at_creation_and_rotation(
    start_service: ServiceFactory,
) -> None:
    service = start_service(webhook_allow_http=("127.0.0.1",))
    with Client(service.base_url, service.api_key, max_retries=0) as client:
        created = client.call(
            ops.create_webhook_endpoint("http://127.0.0.1:9/hook", ["processor.run.completed"])
        )
        first = created.secret
        assert first
        assert first.startswith("whsec_")
        rotated = client.call(ops.rotate_webhook_secret(created.id))
        second = rotated.secret
        assert second
        assert second != first
        workspace = client.call(ops.rotate_workspace_secret())
        assert workspace.secret
        client.call(ops.send_test_webhook("processor.run.completed", created.id))
    with httpx.Client(
        base_url=service.base_url, headers={"x-api-key": TEST_KEY}, timeout=60
    ) as http:
        answers = [
            http.get("/webhooks/endpoints"),
            http.get(f"/webhooks/endpoints/{created.id}"),
            http.patch(f"/webhooks/endpoints/{created.id}", json={"description": "x"}),
            http.get(f"/webhooks/endpoints/{created.id}/deliveries"),
            http.get("/webhooks/deliveries"),
            http.get("/webhooks/workspace-secret"),
            http.get("/webhooks/notifications"),
        ]
    for answer in answers:
        assert answer.status_code == 200, answer.text
        for secret in (first, second, workspace.secret):
            assert secret not in answer.text
        assert "whsec_" not in answer.text
