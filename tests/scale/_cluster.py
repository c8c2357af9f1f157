"""A real Dask scheduler and worker processes on loopback, started with Dask's own commands
(``dask scheduler``, ``dask worker``) on free ports; readiness is observed (the scheduler's
address in its log, then the workers registered), never slept on; :meth:`Cluster.close`
stops every process."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

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
