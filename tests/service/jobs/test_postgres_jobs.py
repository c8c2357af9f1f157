"""Jobs on PostgreSQL: concurrent claims never hand one job to two workers, and runs finish
once each."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from fieldwise._config import ServiceSettings
from fieldwise.client import Client, ops
from fieldwise.service import create_app, start_in_thread
from fieldwise.service.app import MIGRATIONS
from fieldwise.service.clock import SystemClock
from fieldwise.service.jobs import claim, enqueue
from fieldwise.service.store import migrate
from tests.postgres import postgres_server
from tests.service.resources.runs.conftest import invoice, make_processor, wait_run


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


def test_concurrent_claims_take_each_job_once(pg_url: str) -> None:
    engine = create_engine(pg_url, pool_size=10)
    migrate(engine, MIGRATIONS)
    clock = SystemClock()
    with engine.begin() as conn:
        queued = {enqueue(conn, clock, "probe", f"t{n}") for n in range(120)}
    taken: list[str] = []
    lock = threading.Lock()

    def worker(n: int) -> None:
        while (job := claim(engine, clock, f"w{n}", ("probe",))) is not None:
            with lock:
                taken.append(job.id)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    engine.dispose()
    assert sorted(taken) == sorted(queued)


def test_runs_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    settings = ServiceSettings(
        data_dir=tmp_path / "svc", database_url=pg_url, api_keys=("k",), workers=3
    )
    with (
        start_in_thread(settings, app=create_app(settings)) as running,
        Client(running.base_url, "k") as client,
    ):
        pid = make_processor(client, "pg-runs")
        file_ids = [client.upload_file(invoice(n), filename=f"{n}.txt").id for n in range(5)]
        runs = [client.call(ops.create_run(pid, file_ids[n % 5])).id for n in range(30)]
        done = [wait_run(client, pid, run_id) for run_id in runs]
        assert {r.status for r in done} == {"succeeded"}
        outputs = [f for f in client.list_files() if f.purpose == "output"]
        assert sorted(f.metadata["run_id"] for f in outputs) == sorted(runs)
