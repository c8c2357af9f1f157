"""Acceptance: a real Dask scheduler and two worker processes on loopback score a run set of
2M cells x 2 versions exactly as the in-process executor does, even when a worker is killed
mid-way.

The cluster is started with Dask's own commands (``dask scheduler``, ``dask worker``) as
subprocesses on free ports; readiness is observed (the scheduler's address in its log, then
two workers registered), never slept on; every process is stopped when the test ends.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fieldwise.scale import score_store, write_cells
from tests.scale._data import SPECS, generated_frame

DASK = str(Path(sys.executable).with_name("dask"))
#: Guards against a hang only; every wait returns as soon as the state is observed.
BOUND = 180.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_for_line(log: Path, needle: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        if needle in log.read_text(errors="replace"):
            return
        if proc.poll() is not None:
            raise AssertionError(f"{proc.args} exited: {log.read_text(errors='replace')}")
        time.sleep(0.05)  # polling an observed state, bounded
    raise AssertionError(f"{needle!r} never appeared in {log}")


class Cluster:
    """A scheduler and worker processes; :meth:`close` stops whatever is still running."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        self.workers: list[subprocess.Popen[bytes]] = []
        self.procs: list[subprocess.Popen[bytes]] = []
        log = tmp / "scheduler.log"
        self.scheduler = self._spawn(
            [
                DASK,
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                self.address.rsplit(":", 1)[1],
                "--no-dashboard",
            ],
            log,
        )
        _wait_for_line(log, "Scheduler at:", self.scheduler)

    def _spawn(self, args: list[str], log: Path) -> subprocess.Popen[bytes]:
        handle = log.open("wb")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        proc = subprocess.Popen(args, stdout=handle, stderr=subprocess.STDOUT, env=env)
        handle.close()
        self.procs.append(proc)
        return proc

    def add_worker(self, name: str) -> subprocess.Popen[bytes]:
        proc = self._spawn(
            [
                DASK,
                "worker",
                self.address,
                "--name",
                name,
                "--nthreads",
                "1",
                "--no-nanny",
                "--no-dashboard",
                "--host",
                "127.0.0.1",
                "--memory-limit",
                "0",
            ],
            self.tmp / f"{name}.log",
        )
        self.workers.append(proc)
        return proc

    def wait_for_workers(self, n: int) -> None:
        from distributed import Client

        with Client(self.address, timeout="60s") as client:
            client.wait_for_workers(n, timeout=BOUND)

    def close(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    running = Cluster(tmp_path)
    try:
        running.add_worker("w1")
        running.add_worker("w2")
        running.wait_for_workers(2)
        yield running
    finally:
        running.close()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> str:
    """2M cells per version (666,667 documents x 3 fields), in 24 shards."""
    root = tmp_path_factory.mktemp("cells") / "store"
    frame = generated_frame(666_667, seed=5)
    write_cells(frame, str(root), shards=24, provenance={"generated": "tests.scale._data"})
    return str(root)


def _figures(**kwargs: Any) -> dict[str, Any]:
    result = score_store(kwargs.pop("root"), SPECS, baseline="v1", candidates=["v2"], **kwargs)
    return {"executor": result.executor, "partitions": result.partitions, **result.figures()}


def test_dask_cluster_equals_in_process_even_when_a_worker_dies(
    cluster: Cluster, store: str
) -> None:
    local = _figures(root=store)
    assert local["executor"] == "in-process"
    assert local["partitions"] == 24
    assert sum(r["n_cells"] for r in local["fields"] if r["version"] == "v1") == 2_000_001

    killed: list[int] = []

    def kill_first_worker(done: int, total: int) -> None:
        # on an observed state: the first shard's statistics are merged, the rest still run
        if not killed and done < total:
            victim = cluster.workers[0]
            victim.send_signal(signal.SIGKILL)
            victim.wait(timeout=BOUND)
            killed.append(done)

    remote = _figures(
        root=store, executor="dask", scheduler=cluster.address, progress=kill_first_worker
    )
    assert killed == [1]
    assert cluster.workers[0].returncode == -signal.SIGKILL
    assert remote.pop("executor") == "dask"
    assert local.pop("executor") == "in-process"
    # every count, flip, p-value, accuracy and bootstrap bound: equal, not approximately
    assert remote == local
    boot = remote["bootstraps"]["v2"]
    assert boot["documents"] == 666_667
    assert boot["n_resamples"] == 1000
    assert boot["low"] < boot["delta"] < boot["high"]
    sig = {r["field"]: r for r in remote["significance"]}
    assert sig["total"]["fixed"] > sig["total"]["regressed"]
    assert sig["total"]["significant"]
