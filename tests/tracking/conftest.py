"""A real ``mlflow server`` on loopback for the module that asks for it: SQLite backend and
artifact store in a temporary folder, a free port, one worker; waited for through its
``/health`` endpoint and stopped (its whole process group: the server runs uvicorn as a child)
when the module is done. One server per module: its start-up is the slow part."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

# an unloaded machine starts it in seconds; a CI runner sharing two cores can take minutes
_START_TIMEOUT_S = 300.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_healthy(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + _START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"mlflow server exited {process.returncode}:\n{log.read_text()}")
        try:
            if httpx.get(f"{url}/health", timeout=2.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.25)
    pytest.fail(f"mlflow server did not answer /health:\n{log.read_text()}")


@pytest.fixture(scope="module")
def mlflow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The tracking URI (``http://127.0.0.1:PORT``) of a fresh MLflow server."""
    root = tmp_path_factory.mktemp("mlflow")
    port = _free_port()
    log = root / "server.log"
    command = [
        sys.executable,
        "-m",
        "mlflow",
        "server",
        "--backend-store-uri",
        f"sqlite:///{root / 'mlflow.db'}",
        "--artifacts-destination",
        str(root / "artifacts"),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        "1",
    ]
    # no background job runner: nothing here uses MLflow's jobs, and it is one more process
    env = {**os.environ, "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false"}
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, process, log)
        yield url
    finally:
        _stop(process)


def _stop(process: subprocess.Popen[bytes]) -> None:
    # the group is gone already when the server died on its own
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
