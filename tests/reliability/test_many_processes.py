"""Several ``fieldwise serve`` processes on one PostgreSQL database and one blob folder share
the work, and a lost process loses nothing.

- Two processes, 500 processor runs sent across both, one SIGKILLed once both are observed
  running jobs: every run succeeds exactly once, every output is readable, and every
  completion webhook arrives under one event id per run.
- A process frozen with SIGSTOP past its lease: the other one recovers its job and finishes
  it; resumed, the frozen one cannot overwrite that result.

Leases are short here (``FIELDWISE_LEASE_SECONDS``) so recovery is quick; every wait is on an
observed state, never a sleep.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select

from fieldwise.client import Client, ops
from fieldwise.service.events.outbox import events
from fieldwise.service.jobs import jobs
from fieldwise.service.resources.runs.tables import processor_runs
from tests.conftest import TEST_KEY
from tests.postgres import postgres_server
from tests.reliability.conftest import TERMINAL, TRIVIAL, invoice, make_processor, wait_for
from tests.service.jobs.test_crash_recovery import _serve as serve_process
from tests.webhooks.receivers import ScriptedReceiver

RUNS = 500
LEASE_SECONDS = "3"
_REPO = Path(__file__).resolve().parents[2]
GATED = {"engine": "python", "entrypoint": "tests.service.resources.runs.slow_engine:gated"}
#: The gated runs wait for their gate file, or this long: a hang guard only. The engine's default
#: (30 s) is shorter than a loaded machine takes to queue 500 runs, and a gate that opens by
#: itself before the kill leaves nothing to prove.
GATED_TEXT = "gate: {gate}\nlimit: 900\n"


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


def _settings(pg_url: str | None) -> dict[str, str]:
    """A service process's settings: short leases, and the shared database if given (an
    empty URL means the SQLite file of the data dir)."""
    return {
        "FIELDWISE_DATABASE_URL": pg_url or "",
        "FIELDWISE_WEBHOOK_ALLOW_HTTP": "127.0.0.1",
        "FIELDWISE_LEASE_SECONDS": LEASE_SECONDS,
        "FIELDWISE_HEARTBEAT_SECONDS": "0.5",
    }


def _finished_by(pg_url: str, holder_of: str) -> tuple[int, int]:
    """Processor-run jobs finished by the process holding ``holder_of``'s job, and by others."""
    engine = create_engine(pg_url)
    try:
        with engine.connect() as conn:
            holder = conn.execute(
                select(jobs.c.owner).where(jobs.c.target_id == holder_of)
            ).scalar_one()
            owners = Counter(
                r.owner
                for r in conn.execute(
                    select(jobs.c.owner).where(
                        jobs.c.status == "finished", jobs.c.kind == "processor_run"
                    )
                )
            )
    finally:
        engine.dispose()
    mine = owners.pop(holder, 0)
    return mine, sum(owners.values())


def _all_runs(client: Client, pid: str) -> list[Any]:
    return list(client.paginate(lambda cursor: ops.list_runs(pid, 1000, cursor)))


def test_two_processes_share_500_runs_and_one_killed_loses_nothing(
    pg_url: str, tmp_path: Path
) -> None:
    data_dir = tmp_path / "svc"
    gate = tmp_path / "gate"
    receiver = ScriptedReceiver()
    with ExitStack() as stack:
        stack.callback(receiver.stop)
        first, first_url = stack.enter_context(
            serve_process(data_dir, tmp_path / "a.log", _settings(pg_url))
        )
        a = stack.enter_context(Client(first_url, TEST_KEY))
        endpoint = a.call(ops.create_webhook_endpoint(receiver.url, ["processor.run.completed"]))
        pid, _ = make_processor(a, "shared", TRIVIAL)
        slow, _ = make_processor(a, "gated", GATED)
        # Only the first process is up: it claims the gated run and holds it until killed.
        gated_file = a.upload_file(GATED_TEXT.format(gate=gate).encode(), filename="g.txt").id
        gated = a.call(ops.create_run(slow, gated_file))
        wait_for(lambda: Path(f"{gate}.started").exists(), timeout=60)

        _second, second_url = stack.enter_context(
            serve_process(data_dir, tmp_path / "b.log", _settings(pg_url))
        )
        b = stack.enter_context(Client(second_url, TEST_KEY))
        clients = (a, b)
        files = [clients[n % 2].upload_file(invoice(n), filename=f"{n}.txt").id for n in range(10)]

        def submit(n: int) -> str:
            return str(clients[n % 2].call(ops.create_run(pid, files[n % 10])).id)

        # Sent from 16 threads, faster than two processes run them: a queue builds up.
        with ThreadPoolExecutor(16) as pool:
            submitted = list(pool.map(submit, range(RUNS)))

        def both_working() -> bool:
            # Both processes have run some of the runs, and the first one is mid-run (it
            # holds the gated run): whatever the speed, this state comes, and then we kill.
            by_first, by_others = _finished_by(pg_url, gated.id)
            return by_first >= 5 and by_others >= 5

        wait_for(both_working, timeout=300)
        # still held by the first process, mid-run: the kill cuts a run off
        assert b.call(ops.get_run(slow, gated.id)).status == "in_progress"
        first.send_signal(signal.SIGKILL)
        first.wait()
        gate.touch()

        def settled() -> list[Any] | None:
            runs = _all_runs(b, pid) + _all_runs(b, slow)
            return runs if all(r.status in TERMINAL for r in runs) else None

        runs = wait_for(settled, timeout=300)

        def all_delivered() -> list[Any] | None:
            page = b.call(ops.list_webhook_deliveries(endpoint.id, limit=1000))
            states = {d.state for d in page.data}
            return page.data if len(page.data) >= RUNS + 1 and states == {"delivered"} else None

        deliveries = wait_for(all_delivered, timeout=120)
        by_id = {r.id: r for r in runs}
        assert set(by_id) == {*submitted, gated.id}
        assert {r.status for r in runs} == {"succeeded"}
        # The gated run was cut off in the killed process and finished by the other one.
        assert by_id[gated.id].attempts == 2
        outputs = [f.metadata["run_id"] for f in b.list_files() if f.purpose == "output"]
        assert sorted(r for r in outputs if r in by_id) == sorted(by_id)
        # Any process serves any output (the blob folder is shared); the killed one's
        # output_uri names it, so read through the survivor.
        for run in runs:
            content = b.call(ops.get_file_content(run.output_file_id))
            assert json.loads(content) == run.output

    engine = create_engine(pg_url)
    with engine.connect() as conn:
        completed = Counter(
            r.run_id
            for r in conn.execute(
                select(events.c.data["run_id"].as_string().label("run_id")).where(
                    events.c.type == "processor.run.completed"
                )
            )
        )
        unfinished = conn.execute(
            select(func.count())
            .select_from(jobs)
            .where(jobs.c.status != "finished", jobs.c.target_id.in_([*submitted, gated.id]))
        ).scalar_one()
    engine.dispose()
    # Each run completed exactly once: one event each, and no job left behind.
    assert {r: n for r, n in completed.items() if r in by_id} == dict.fromkeys(by_id, 1)
    assert unfinished == 0
    assert len(deliveries) == RUNS + 1
    ids_by_run: dict[str, set[str]] = defaultdict(set)
    for request in receiver.requests:
        ids_by_run[request.json["data"]["run_id"]].add(request.json["id"])
    assert set(ids_by_run) == {*submitted, gated.id}
    assert all(len(ids) == 1 for ids in ids_by_run.values())


def test_a_frozen_worker_loses_its_job_and_cannot_overwrite_the_result(
    pg_url: str, tmp_path: Path
) -> None:
    data_dir = tmp_path / "svc"
    gate = tmp_path / "gate"
    with ExitStack() as stack:
        first, first_url = stack.enter_context(
            serve_process(data_dir, tmp_path / "a.log", _settings(pg_url))
        )
        a = stack.enter_context(Client(first_url, TEST_KEY))
        slow, _ = make_processor(a, "frozen", GATED)
        gated_file = a.upload_file(GATED_TEXT.format(gate=gate).encode(), filename="g.txt").id
        run = a.call(ops.create_run(slow, gated_file))
        wait_for(lambda: Path(f"{gate}.started").exists(), timeout=60)
        first.send_signal(signal.SIGSTOP)  # frozen mid-run, holding the job's lease
        Path(f"{gate}.started").unlink()

        _second, second_url = stack.enter_context(
            serve_process(data_dir, tmp_path / "b.log", _settings(pg_url))
        )
        b = stack.enter_context(Client(second_url, TEST_KEY))
        # The second process recovers the job once the lease expired and runs it again; the
        # gate is still closed, so it waits in the gate too (a fresh ``.started``).
        wait_for(lambda: Path(f"{gate}.started").exists(), timeout=60)
        gate.touch()
        done = wait_for(
            lambda: (r := b.call(ops.get_run(slow, run.id))).status in TERMINAL and r, timeout=60
        )
        assert done.status == "succeeded"
        assert done.attempts == 2

        first.send_signal(signal.SIGCONT)
        # Resumed, the frozen worker finds its gate open and tries to finish: its lease is
        # gone, so its result is dropped. Wait until it has observably given the job up.
        wait_for(lambda: "its lease was lost" in (tmp_path / "a.log").read_text(), timeout=60)
        after = a.call(ops.get_run(slow, run.id))
        assert after.status == "succeeded"
        assert after.output_file_id == done.output_file_id
        assert after.finished_at == done.finished_at
        assert after.attempts == 2
        outputs = [f for f in a.list_files() if f.metadata.get("run_id") == run.id]
        assert [f.id for f in outputs] == [done.output_file_id]

    engine = create_engine(pg_url)
    with engine.connect() as conn:
        completed = conn.execute(
            select(func.count())
            .select_from(events)
            .where(
                events.c.type == "processor.run.completed",
                events.c.data["run_id"].as_string() == run.id,
            )
        ).scalar_one()
        state = conn.execute(
            select(processor_runs.c.status).where(processor_runs.c.id == run.id)
        ).scalar_one()
    engine.dispose()
    assert state == "succeeded"
    assert completed == 1


def test_on_sqlite_one_process_claims_and_a_second_says_so(tmp_path: Path) -> None:
    """``fieldwise worker`` takes the jobs of a SQLite data dir; a ``fieldwise serve`` started
    beside it says clearly that it runs none, answers requests, and steals no work."""
    data_dir = tmp_path / "svc"
    env = {
        **os.environ,
        "FIELDWISE_API_KEYS": TEST_KEY,
        "FIELDWISE_ALLOW_PYTHON_ENGINES": "1",
        "PYTHONPATH": os.pathsep.join([str(_REPO), os.environ.get("PYTHONPATH", "")]),
        **_settings(None),
    }
    log = tmp_path / "worker.log"
    command = [sys.executable, "-c", "from fieldwise.cli import main; main()"]
    with log.open("ab") as out:
        worker = subprocess.Popen(
            [*command, "worker", "--data-dir", str(data_dir)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        lock = data_dir / "fieldwise.db.claims.lock"
        wait_for(lambda: lock.exists() and lock.read_text().strip() == str(worker.pid), 60)
        with serve_process(data_dir, tmp_path / "serve.log", _settings(None)) as (
            _serve_proc,
            base_url,
        ):
            serve_log = (tmp_path / "serve.log").read_text()
            assert f"another process (pid {worker.pid}) runs the jobs" in serve_log
            with Client(base_url, TEST_KEY) as client:
                pid, _ = make_processor(client, "via-worker", TRIVIAL)
                file_id = client.upload_file(invoice(7), filename="7.txt").id
                runs = [client.call(ops.create_run(pid, file_id)).id for _ in range(5)]
                done = wait_for(
                    lambda: all(client.call(ops.get_run(pid, r)).status in TERMINAL for r in runs),
                    timeout=60,
                )
                assert done
                assert {client.call(ops.get_run(pid, r)).status for r in runs} == {"succeeded"}
        assert worker.poll() is None
    finally:
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=60) == 0, log.read_text()
