"""Durability: kill -9 the service mid-way through 240 runs, restart it on the same data dir,
and every run ends terminal with exactly one output per succeeded run."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx
from sqlalchemy import create_engine, select, update

from fieldwise.client import Client, ops
from fieldwise.service.jobs import jobs
from fieldwise.service.resources.runs.tables import processor_runs
from tests.conftest import TEST_KEY, ServiceFactory
from tests.service.resources.runs.conftest import TERMINAL, invoice, make_processor, wait_for

RUNS = 240
_REPO = Path(__file__).resolve().parents[3]
_GUARD = 300.0  # seconds: only guards against a hang, never races the work

GATED = {"engine": "python", "entrypoint": "tests.service.resources.runs.slow_engine:gated"}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def _serve(
    data_dir: Path, log: Path, extra_env: Mapping[str, str] | None = None
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``fieldwise serve`` in a child process on ``data_dir`` (``extra_env`` added)."""
    port = _free_port()
    env = {
        **os.environ,
        "FIELDWISE_API_KEYS": TEST_KEY,
        "FIELDWISE_WORKERS": "2",
        "FIELDWISE_ALLOW_PYTHON_ENGINES": "1",
        # So the server can import the test engine (tests.service.resources.runs.slow_engine).
        "PYTHONPATH": os.pathsep.join([str(_REPO), os.environ.get("PYTHONPATH", "")]),
        **(extra_env or {}),
    }
    command = [sys.executable, "-c", "from fieldwise.cli import main; main()", "serve"]
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [*command, "--port", str(port), "--data-dir", str(data_dir)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base_url = f"http://127.0.0.1:{port}"

    def up() -> bool:
        assert proc.poll() is None, log.read_text()
        try:
            return httpx.get(
                base_url + "/files", headers={"x-api-key": TEST_KEY}, timeout=60
            ).is_success
        except httpx.TransportError:
            return False

    try:
        wait_for(up, timeout=_GUARD)  # a start takes long on a loaded machine; a crash fails fast
        yield proc, base_url
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGCONT)  # a stopped process cannot die otherwise
            proc.kill()
        proc.wait()


def _all_runs(client: Client, pid: str) -> list[ops.Run]:  # type: ignore[name-defined]
    return list(client.paginate(lambda cursor: ops.list_runs(pid, 1000, cursor)))


def test_sigkill_mid_way_loses_nothing_and_finishes_nothing_twice(tmp_path: Path) -> None:
    data_dir = tmp_path / "svc"
    log = tmp_path / "service.log"
    gate = tmp_path / "gate"
    with _serve(data_dir, log) as (proc, base_url), Client(base_url, TEST_KEY) as client:
        pid = make_processor(client)
        slow = make_processor(client, "slow", GATED)
        # Still in flight at the kill however long the 240 submissions take on a loaded machine.
        gated_text = f"gate: {gate}\nlimit: {_GUARD}\n"
        gated_file = client.upload_file(gated_text.encode(), filename="g.txt").id
        gated = client.call(ops.create_run(slow, gated_file))
        wait_for(lambda: Path(f"{gate}.started").exists(), timeout=_GUARD)
        files = [client.upload_file(invoice(n), filename=f"{n}.txt").id for n in range(12)]
        submitted = [client.call(ops.create_run(pid, files[n % 12])).id for n in range(RUNS)]
        wait_for(
            lambda: len(client.call(ops.list_runs(pid, 1000, status="succeeded")).data) >= 20,
            timeout=_GUARD,
        )
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    engine = create_engine(f"sqlite:///{data_dir / 'fieldwise.db'}")
    with engine.connect() as conn:
        states = [r.status for r in conn.execute(select(processor_runs.c.status))]
    engine.dispose()
    assert len(states) == RUNS + 1
    # The gated run was cut off mid-way, whatever else had finished: that, not how many of
    # the quick runs won the race with the kill, is what makes the kill come mid-way.
    assert "in_progress" in states

    with _serve(data_dir, log) as (_proc, base_url), Client(base_url, TEST_KEY) as client:
        gate.touch()

        def settled() -> list[object] | None:
            runs = _all_runs(client, pid) + _all_runs(client, slow)
            return runs if all(r.status in TERMINAL for r in runs) else None

        runs = wait_for(settled, timeout=_GUARD)
        by_id = {r.id: r for r in runs}
        assert set(by_id) == {*submitted, gated.id}
        assert by_id[gated.id].status == "succeeded"
        assert by_id[gated.id].attempts == 2
        succeeded = [r for r in runs if r.status == "succeeded"]
        assert len(succeeded) == RUNS + 1
        outputs = [f for f in client.list_files() if f.purpose == "output"]
        assert sorted(f.metadata["run_id"] for f in outputs) == sorted(by_id)
        assert {f.id for f in outputs} == {r.output_file_id for r in succeeded}
        for run in succeeded[:: RUNS // 8]:
            if run.processor_id == pid:
                number = int(run.output["value"]["invoice_number"][4:])
                assert run.output["value"]["total"] == number + 0.5


def test_runs_interrupted_too_often_fail_with_a_reason(
    start_service: ServiceFactory, tmp_path: Path
) -> None:
    service = start_service()
    with Client(service.base_url, service.api_key, max_retries=0) as client:
        pid = make_processor(client)
        file_id = client.upload_file(invoice(1), filename="a.txt").id
        run = client.call(ops.create_run(pid, file_id))
        wait_for(lambda: client.call(ops.get_run(pid, run.id)).status == "succeeded")
    service.stop()
    # Leave the database as a process killed during its last allowed attempt would.
    engine = create_engine(f"sqlite:///{tmp_path / 'service' / 'fieldwise.db'}")
    with engine.begin() as conn:
        conn.execute(
            update(processor_runs)
            .where(processor_runs.c.id == run.id)
            .values(status="in_progress", output=None, output_file_id=None, finished_at=None)
        )
        conn.execute(
            update(jobs).where(jobs.c.target_id == run.id).values(status="running", attempts=3)
        )
    engine.dispose()
    service = start_service()
    with Client(service.base_url, service.api_key, max_retries=0) as client:
        failed = client.call(ops.get_run(pid, run.id))
        assert failed.status == "failed"
        assert failed.failure_reason == "worker_lost"
        assert "3 times" in (failed.failure_message or "")
