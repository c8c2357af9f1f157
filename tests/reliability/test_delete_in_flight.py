"""Deleting a file or a parse run while a run on it is in flight leaves nothing derived: no
file row, no blob on disk (spec endpoints 14 and 17: "permanently remove … and its outputs").

Each run is held at a known stage until the delete has been answered, then released; the
test waits for the run's work to end (an observed state, never a sleep) before it looks.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fieldwise.service.engines.processes import EnginePool
from fieldwise.service.resources.parse import job as parse_job
from fieldwise.service.state import Engines
from tests.reliability.backends import Api, api, pg_url, unique
from tests.reliability.conftest import wait_for

__all__ = ["api", "pg_url"]  # fixtures, imported for pytest

GATED = {"engine": "python", "entrypoint": "tests.service.resources.runs.slow_engine:gated"}
_BOUND = 60.0  # guards against a hang only


def _files(api: Api) -> list[dict[str, Any]]:
    return list(api.ok("GET", "/files", params={"limit": 1000})["data"])


def test_deleting_the_input_file_during_a_processor_run_leaves_no_output(
    api: Api, tmp_path: Path
) -> None:
    processor_id = api.ok("POST", "/processors", json={"name": unique("gated")})["id"]
    version = api.ok("POST", f"/processors/{processor_id}/versions", json={"config": GATED})
    api.ok("POST", f"/processors/{processor_id}/versions/{version['id']}/publish")
    gate = tmp_path / "gate"
    file_id = api.upload(f"gate: {gate}\nlimit: {_BOUND}\n".encode())
    run = api.ok("POST", f"/processors/{processor_id}/runs", json={"input_path": file_id})
    started = Path(f"{gate}.started")
    wait_for(started.exists, timeout=_BOUND)  # the run is in its extract stage, its parse cached
    api.ok("DELETE", f"/files/{file_id}")
    gate.touch()
    done = api.wait_run(processor_id, run["id"])
    assert done["status"] == "failed"
    assert done["failure_reason"] == "input_missing"
    assert done["output"] is None
    assert done["output_file_id"] is None
    assert _files(api) == []
    assert api.blobs_on_disk() == []


@pytest.fixture
def engines(request: pytest.FixtureRequest) -> Engines:
    """The service's engines (the ``api`` fixture's): with ``held_parse``, a parse in the
    service's own process waits for its release, handed to the service as its parse engine."""
    if "held_parse" not in request.fixturenames:
        return Engines()
    held: _Held = request.getfixturevalue("held_parse")
    real = Engines()

    def parse(*args: Any, **kwargs: Any) -> Any:
        held.started.set()
        assert held.release.wait(_BOUND)
        return real.parse(*args, **kwargs)

    return Engines(parse=parse)


@pytest.fixture
def held_parse(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Held]:
    """Parsing waits (in the service's parse engine, see ``engines``, and in its job threads
    before any worker process) until released; ``finished`` is set once a parse run's whole
    execution (storing or dropping its outputs) has returned."""
    held = _Held()
    real_pool_parse = EnginePool.parse
    real_execute = parse_job.execute_parse

    def pool_parse(self: EnginePool, *args: Any, **kwargs: Any) -> Any:
        # the service's job thread hands parsing to worker processes: hold it here, before
        held.started.set()
        assert held.release.wait(_BOUND)
        return real_pool_parse(self, *args, **kwargs)

    def execute(*args: Any, **kwargs: Any) -> Any:
        try:
            return real_execute(*args, **kwargs)
        finally:
            held.finished.set()

    monkeypatch.setattr(EnginePool, "parse", pool_parse)
    monkeypatch.setattr(parse_job, "execute_parse", execute)  # what the parse job calls
    yield held
    held.release.set()


class _Held:
    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.finished = threading.Event()


@pytest.mark.parametrize("target", ["parse_run", "input_file"])
def test_deleting_during_a_parse_run_leaves_nothing_derived(
    api: Api, held_parse: _Held, target: str
) -> None:
    upload = {"file": ("doc.txt", b"Invoice No: INV-0042\nTotal: 42.00 EUR\n", "text/plain")}
    run = api.ok("POST", "/parse/file/async", files=upload)
    assert held_parse.started.wait(_BOUND)  # a worker is parsing it now
    if target == "parse_run":
        api.ok("DELETE", f"/parse/runs/{run['id']}")
    else:
        api.ok("DELETE", f"/files/{run['input_file_id']}")
    held_parse.release.set()
    assert held_parse.finished.wait(_BOUND)
    if target == "input_file":
        done = api.ok("GET", f"/parse/runs/{run['id']}")
        assert (done["status"], done["failure_reason"]) == ("failed", "input_missing")
        assert done["output"] is None
    else:
        assert api.http.get(f"/parse/runs/{run['id']}").status_code == 404
    assert _files(api) == []
    assert api.blobs_on_disk() == []
