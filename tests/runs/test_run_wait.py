"""``GET /processors/{id}/runs/{run_id}?wait=S``: the answer is held until the run ends.

Each test opens the run's gate only once the service is seen holding the request (its
waiter registered), so an answer of the terminal state shows the hold, not a late request.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from fieldwise.client import Client, ops
from fieldwise.service import RunningService
from tests.runs.conftest import make_processor, wait_for

GATED = {"engine": "python", "entrypoint": "tests.runs.slow_engine:gated"}


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


def _held(
    service: RunningService, client: Client, gate: Path
) -> tuple[str, str, threading.Thread, list[httpx.Response]]:
    """A gated run in progress and a ``?wait=`` request the service is seen holding."""
    pid = make_processor(client, "slow", GATED)
    file_id = client.upload_file(f"gate: {gate}\n".encode(), filename="g.txt").id
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


@pytest.mark.parametrize("wait", ["-1", "31", "soon"])
def test_bad_wait_is_422(service: RunningService, client: Client, wait: str) -> None:
    pid = make_processor(client)
    response = httpx.get(
        f"{service.base_url}/processors/{pid}/runs/run_nope",
        params={"wait": wait},
        headers={"x-api-key": service.api_key},
    )
    assert response.status_code == 422
    assert "wait" in response.text
