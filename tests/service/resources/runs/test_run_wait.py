"""``GET /processors/{id}/runs/{run_id}?wait=S`` and ``POST /processors/{id}/runs?wait=S``:
the answer is held until the run ends.

Each test opens the run's gate only once the service is seen holding the request (its
waiter registered), so an answer of the terminal state shows the hold, not a late request.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from fieldwise.client import Client, ops
from fieldwise.service import RunningService
from tests.service.resources.runs.conftest import invoice, make_processor, wait_for

GATED = {"engine": "python", "entrypoint": "tests.service.resources.runs.slow_engine:gated"}


@pytest.fixture
def python_service(start_service: Any) -> RunningService:
    service: RunningService = start_service(allow_python_engines=True, workers=1)
    return service


def _held_get(
    service: RunningService, path: str, answers: list[httpx.Response]
) -> threading.Thread:
    def ask() -> None:
        answers.append(
            httpx.get(
                f"{service.base_url}{path}",
                params={"wait": 30},
                headers={"x-api-key": service.api_key},
                timeout=60,
            )
        )

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    return thread


def _waiting(service: RunningService) -> set[str | None]:
    """The ids the service holds requests for."""
    state = service.app.state.fieldwise  # type: ignore[attr-defined]
    with state.waiters._lock:  # the service's threads change it meanwhile
        return set(state.waiters._waiting)


def _gated_file(client: Client, gate: Path) -> tuple[str, str]:
    """A processor whose runs wait for ``gate`` to exist, and a file for it."""
    pid = make_processor(client, "slow", GATED)
    return pid, client.upload_file(f"gate: {gate}\n".encode(), filename="g.txt").id


def _held(
    service: RunningService, client: Client, gate: Path
) -> tuple[str, str, threading.Thread, list[httpx.Response]]:
    """A gated run in progress and a ``?wait=`` request the service is seen holding."""
    pid, file_id = _gated_file(client, gate)
    run_id = client.call(ops.create_run(pid, file_id)).id
    wait_for(lambda: Path(f"{gate}.started").exists())
    answers: list[httpx.Response] = []
    thread = _held_get(service, f"/processors/{pid}/runs/{run_id}", answers)
    wait_for(lambda: run_id in _waiting(service))
    return pid, run_id, thread, answers


def test_wait_answers_when_the_run_succeeds(python_service: RunningService, tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    with Client(python_service.base_url, python_service.api_key, max_retries=0) as client:
        pid, run_id, thread, answers = _held(python_service, client, gate)
        assert not answers  # held while the run is in progress
        gate.touch()
        thread.join(timeout=60)
        assert answers[0].status_code == 200
        body = answers[0].json()
        assert body["status"] == "succeeded"
        assert body["output"]["value"] == {"gate": "opened"}
        assert run_id not in _waiting(python_service)  # the waiter is gone with its request
        # Without wait, or on a terminal run, the answer comes at once, as before.
        assert client.call(ops.get_run(pid, run_id)).status == "succeeded"


@pytest.mark.parametrize(
    ("act", "expected"), [(ops.cancel_run, (200, "canceled")), (ops.delete_run, (404, None))]
)
def test_wait_answers_a_cancel_or_a_delete(
    python_service: RunningService, tmp_path: Path, act: Any, expected: tuple[int, str | None]
) -> None:
    gate = tmp_path / "gate"
    with Client(python_service.base_url, python_service.api_key, max_retries=0) as client:
        pid, run_id, thread, answers = _held(python_service, client, gate)
        client.call(act(pid, run_id))
        thread.join(timeout=60)
        gate.touch()
        status, state = expected
        assert answers[0].status_code == status
        body = answers[0].json()
        if state is not None:
            assert body["status"] == state
        else:  # deleted while held: gone
            assert body["error"]["code"] == "not_found"


def _create(service: RunningService, pid: str, file_id: str, wait: Any) -> httpx.Response:
    return httpx.post(
        f"{service.base_url}/processors/{pid}/runs",
        params={"wait": wait},
        json={"input_path": file_id, "params": {}},
        headers={"x-api-key": service.api_key},
        timeout=60,
    )


def test_create_with_wait_answers_the_finished_run(service: RunningService, client: Client) -> None:
    pid = make_processor(client)
    file_id = client.upload_file(invoice(7), filename="i.txt").id
    response = _create(service, pid, file_id, 30)
    assert response.status_code == 201  # what a create answers, held or not
    body = response.json()
    assert body["status"] == "succeeded"
    assert body["output"]["value"]["invoice_number"] == "INV-0007"
    fetched = httpx.get(
        f"{service.base_url}/processors/{pid}/runs/{body['id']}",
        headers={"x-api-key": service.api_key},
    )
    assert fetched.json() == body  # the same body a read gives
    # Without wait the create answers at once, queued, as before.
    assert _create(service, pid, file_id, 0).json()["status"] == "queued"


def test_create_with_wait_answers_unfinished_after_the_bound(
    python_service: RunningService, tmp_path: Path
) -> None:
    gate = tmp_path / "gate"
    with Client(python_service.base_url, python_service.api_key, max_retries=0) as client:
        pid, file_id = _gated_file(client, gate)
        response = _create(python_service, pid, file_id, 0.2)
        assert response.status_code == 201
        body = response.json()
        assert body["status"] in ("queued", "in_progress")  # the gate is still shut
        assert body["id"] not in _waiting(python_service)
        gate.touch()
        finished = client.call(
            dataclasses.replace(ops.get_run(pid, body["id"]), params={"wait": 30})
        )
        assert finished.status == "succeeded"


def test_create_with_wait_answers_the_created_run_once_it_is_deleted(
    python_service: RunningService, tmp_path: Path
) -> None:
    gate = tmp_path / "gate"
    with Client(python_service.base_url, python_service.api_key, max_retries=0) as client:
        pid, file_id = _gated_file(client, gate)
        answers: list[httpx.Response] = []
        thread = threading.Thread(
            target=lambda: answers.append(_create(python_service, pid, file_id, 30)), daemon=True
        )
        thread.start()
        wait_for(lambda: Path(f"{gate}.started").exists())
        run_id = wait_for(lambda: next(iter(_waiting(python_service) - {None}), None))
        client.call(ops.delete_run(pid, run_id))
        thread.join(timeout=60)
        gate.touch()
        assert answers[0].status_code == 201  # the create did happen
        assert answers[0].json()["id"] == run_id
        assert client.call(ops.list_runs(pid)).data == []  # and the run is gone


@pytest.mark.parametrize("wait", ["-1", "31", "soon"])
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_bad_wait_is_422(service: RunningService, client: Client, wait: str, method: str) -> None:
    pid = make_processor(client)
    path = "/runs/run_nope" if method == "GET" else "/runs"
    response = httpx.request(
        method,
        f"{service.base_url}/processors/{pid}{path}",
        params={"wait": wait},
        json={"input_path": "file_nope", "params": {}} if method == "POST" else None,
        headers={"x-api-key": service.api_key},
    )
    assert response.status_code == 422
    assert "wait" in response.text
    assert client.call(ops.list_runs(pid)).data == []  # nothing was queued
