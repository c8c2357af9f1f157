"""The receiving side: the Receiver, ``fieldwise webhooks listen`` as a process, the CLI over
a real service, and the background worker delivering on the wall clock end to end."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import httpx
from click.testing import CliRunner

from fieldwise.cli import cli
from fieldwise.client import ops
from fieldwise.service.clock import SystemClock
from fieldwise.webhooks import SIGNATURE_HEADER, Receiver, sign
from tests.service.events.webhooks.conftest import WebhookService
from tests.service.events.webhooks.test_delivery import emit
from tests.webhooks.receivers import ScriptedReceiver, free_port, send_cut_off, wait_for

SECRET = "whsec_test_secret"
GUARD = 60.0  # seconds: only guards against a test that never releases


def _post(url: str, event: dict[str, object], secret: str = SECRET, **kw: object) -> httpx.Response:
    body = json.dumps(event).encode()
    header = sign(body, secret, int(kw.pop("t", time.time())))  # type: ignore[call-overload]
    return httpx.post(url, content=body, headers={SIGNATURE_HEADER: header}, timeout=5)


def test_receiver_verifies_answers_202_dedupes_and_appends(tmp_path: Path) -> None:
    out = tmp_path / "events.jsonl"
    seen: list[str] = []
    with Receiver(SECRET, out=out, on_event=lambda e: seen.append(e["id"])) as receiver:
        one = {"id": "evt_1", "type": "evaluation.completed", "data": {}}
        two = {"id": "evt_2", "type": "evaluation.completed", "data": {}}
        assert _post(receiver.url, one).status_code == 202
        assert _post(receiver.url, one).status_code == 202  # a retry: answered, not rewritten
        assert _post(receiver.url, two).status_code == 202
        assert _post(receiver.url, two, secret="whsec_wrong").status_code == 400
        assert _post(receiver.url, two, t=time.time() - 3600).status_code == 400
        assert (receiver.received, receiver.rejected) == (3, 2)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [e["id"] for e in lines] == ["evt_1", "evt_2"]
    assert seen == ["evt_1", "evt_2"]
    # A restarted receiver remembers what it already wrote.
    with Receiver(SECRET, out=out) as again:
        assert _post(again.url, one).status_code == 202
    assert len(out.read_text().splitlines()) == 2


class _HeldAfterAnswering(Receiver):
    """A Receiver whose handler threads stop right after writing a 2xx answer, until
    :attr:`release` is set: what a loaded machine does when it schedules the sender before the
    receiver's thread resumes, made certain instead of likely."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.release = threading.Event()
        super().__init__(*args, **kwargs)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        receiver = self
        base: Any = super()._handler_class()

        class Held(base):  # type: ignore[misc]
            def _answer(self, status: int, payload: dict[str, Any]) -> None:
                super()._answer(status, payload)
                if 200 <= status < 300:
                    receiver.release.wait(GUARD)

        return Held


def test_a_202_means_the_delivery_is_recorded(tmp_path: Path) -> None:
    # The sender may read the receiver's state (or the receiver may be stopped) the moment the
    # 202 arrives. Before, the receiver counted and wrote the event after answering: held
    # there, it had answered 202 for an event it had neither counted nor written.
    out = tmp_path / "events.jsonl"
    receiver = _HeldAfterAnswering(SECRET, out=out).start()
    try:
        event = {"id": "evt_1", "type": "evaluation.completed", "data": {}}
        assert _post(receiver.url, event).status_code == 202
        assert (receiver.received, receiver.rejected) == (1, 0)
        assert receiver.event_ids == {"evt_1"}
        assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["evt_1"]
    finally:
        receiver.release.set()
        receiver.stop()


def test_a_delivery_cut_off_by_its_sender_is_neither_received_nor_rejected(
    tmp_path: Path,
) -> None:
    # A service killed mid-send leaves the headers and part of the body; it sends the whole
    # delivery again later. Before, the short body failed the signature: one more "rejected",
    # and a traceback for answering a closed connection.
    event = {"id": "evt_1", "type": "processor.run.completed", "data": {}}
    body = json.dumps(event).encode()
    header = sign(body, SECRET, int(time.time()))
    with Receiver(SECRET, out=tmp_path / "events.jsonl") as receiver:
        assert send_cut_off(receiver.url, body, 12, {SIGNATURE_HEADER: header}) == b""
        assert (receiver.received, receiver.rejected) == (0, 0)
        assert _post(receiver.url, event).status_code == 202
        assert (receiver.received, receiver.rejected) == (1, 0)
    assert receiver.event_ids == {"evt_1"}


def test_listen_command_runs_a_receiver_process(tmp_path: Path) -> None:
    out = tmp_path / "events.jsonl"
    port = free_port()
    command = [sys.executable, "-c", "from fieldwise.cli import main; main()", "webhooks"]
    command += ["listen", "--port", str(port), "--secret", SECRET, "--out", str(out)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    ) as process:
        try:
            assert process.stdout is not None
            assert process.stdout.readline().startswith(f"listening on http://127.0.0.1:{port}/")
            event = {"id": "evt_cli", "type": "processor.run.completed", "data": {}}
            assert _post(f"http://127.0.0.1:{port}/", event).status_code == 202
            assert _post(f"http://127.0.0.1:{port}/", event).status_code == 202
            assert process.stdout.readline().startswith("evt_cli  processor.run.completed")
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                # Popen's __exit__ would wait with no bound: a receiver deaf to SIGINT (one
                # started with SIGINT ignored, as a background job's children are) fails here
                process.kill()
                process.wait()
                raise
    assert process.returncode == 130
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["evt_cli"]


def test_background_worker_delivers_on_the_wall_clock_to_the_toolkit_receiver(
    start_webhooks: Callable[..., WebhookService], tmp_path: Path
) -> None:
    hooks = start_webhooks(clock_=SystemClock(), poll=0.05)
    out = tmp_path / "received.jsonl"
    with Receiver("whsec_placeholder", out=out) as receiver:
        endpoint = hooks.client.call(
            ops.create_webhook_endpoint(receiver.url, ["processor.run.completed"])
        )
        assert endpoint.secret is not None
        receiver.secrets = [endpoint.secret]
        event_id = emit(hooks)
        # Wait on what is asserted: the service's record of the attempt. The receiver writes
        # the event before its 202, and the service records the attempt after reading it, so
        # waiting on the file and then reading the delivery found it still pending, no
        # attempt recorded (IndexError) when the worker's thread was scheduled late.
        wait_for(
            lambda: [d.state for d in _deliveries(hooks, endpoint.id)] not in ([], ["pending"])
        )
        [delivery] = _deliveries(hooks, endpoint.id)
        assert (delivery.state, delivery.attempts[0].status_code) == ("delivered", 202)
        # a 202 means recorded: no second wait for the file
        assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == [event_id]


def _deliveries(hooks: WebhookService, endpoint_id: str) -> list[Any]:
    return list(hooks.client.call(ops.list_webhook_deliveries(endpoint_id)).data)


def _invoke(hooks: WebhookService, *args: str) -> tuple[int, str]:
    base = ["--base-url", hooks.running.base_url, "--api-key", hooks.running.api_key]
    result = CliRunner().invoke(cli, [*base, "webhooks", *args])
    return result.exit_code, result.output


def test_cli_manages_endpoints_tests_and_retries(
    hooks: WebhookService, receivers: Callable[..., ScriptedReceiver]
) -> None:
    receiver = receivers(statuses=[500, 200])
    code, out = _invoke(
        hooks, "endpoints", "create", receiver.url, "--event", "processor.run.completed", "--json"
    )
    assert code == 0, out
    created = json.loads(out)
    assert created["secret"].startswith("whsec_")
    endpoint_id = created["id"]
    code, out = _invoke(hooks, "endpoints", "list", "--json")
    assert [e["id"] for e in json.loads(out)] == [endpoint_id]
    assert "whsec_" not in out
    code, out = _invoke(hooks, "endpoints", "show", endpoint_id)
    assert code == 0
    assert receiver.url in out
    assert "whsec_" not in out
    code, out = _invoke(hooks, "endpoints", "update", endpoint_id, "--description", "ci", "--json")
    assert json.loads(out)["description"] == "ci"
    code, out = _invoke(hooks, "endpoints", "update", endpoint_id)
    assert code == 2
    assert "nothing to update" in out

    code, out = _invoke(hooks, "test", "processor.run.completed", "--endpoint", endpoint_id)
    assert code == 0, out
    assert "pending" in out  # queued: the dispatcher sends it
    assert hooks.run_due().attempted == 1
    code, out = _invoke(hooks, "deliveries", "list", "--endpoint", endpoint_id, "--json")
    [delivery] = json.loads(out)
    assert delivery["state"] == "retrying"
    code, out = _invoke(hooks, "deliveries", "retry", delivery["id"])
    assert code == 0, out
    assert "delivered" in out
    assert "manual" in out
    assert "HTTP 500" in out
    code, out = _invoke(hooks, "deliveries", "show", delivery["id"], "--json")
    assert [a["status_code"] for a in json.loads(out)["attempts"]] == [500, 200]
    assert len({r.json["id"] for r in receiver.requests}) == 1

    code, out = _invoke(hooks, "endpoints", "rotate-secret", endpoint_id, "--grace", "60")
    assert code == 0
    assert "whsec_" in out
    code, out = _invoke(hooks, "workspace-secret", "rotate", "--json")
    assert json.loads(out)["secret"].startswith("whsec_")
    code, out = _invoke(hooks, "workspace-secret", "show")
    assert code == 0
    assert "whsec_" not in out
    code, out = _invoke(hooks, "notifications")
    assert code == 0
    code, out = _invoke(hooks, "test", "nope", "--endpoint", endpoint_id)
    assert code in (1, 2)
    code, out = _invoke(hooks, "endpoints", "delete", endpoint_id)
    assert code == 0
    assert f"deleted {endpoint_id}" in out


def test_every_webhooks_command_has_help() -> None:
    runner = CliRunner()
    for path in (
        [],
        ["listen"],
        ["endpoints"],
        ["endpoints", "create"],
        ["endpoints", "list"],
        ["endpoints", "show"],
        ["endpoints", "update"],
        ["endpoints", "delete"],
        ["endpoints", "rotate-secret"],
        ["test"],
        ["deliveries"],
        ["deliveries", "list"],
        ["deliveries", "show"],
        ["deliveries", "retry"],
        ["workspace-secret"],
        ["workspace-secret", "show"],
        ["workspace-secret", "rotate"],
        ["notifications"],
    ):
        result = runner.invoke(cli, ["webhooks", *path, "--help"])
        assert result.exit_code == 0, path
        assert "Usage:" in result.output
