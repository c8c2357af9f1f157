"""A throwaway PostgreSQL server for tests: initdb into a temp folder, listen on loopback.

Runs as the ``postgres`` system user when the tests run as root (PostgreSQL refuses root).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _bin(name: str) -> str:
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    found = candidates[-1] if candidates else shutil.which(name)
    if not found:
        raise RuntimeError(f"PostgreSQL's {name} is not installed (.ci/run installs it)")
    return found


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def postgres_server() -> Iterator[str]:
    """Yield a SQLAlchemy URL of a fresh, empty database on a private server."""
    root = Path(tempfile.mkdtemp(prefix="fieldwise-pg-"))
    root.chmod(0o755)
    data = root / "data"
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = _free_port()
    run = lambda *cmd: subprocess.run([*as_user, *cmd], check=True, capture_output=True)  # noqa: E731
    try:
        run(_bin("initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync")
        run(
            _bin("pg_ctl"),
            "-D",
            str(data),
            "-w",
            "-l",
            str(root / "log"),
            "-o",
            f"-p {port} -k {root} -h 127.0.0.1 -F",
            "start",
        )
        run(_bin("createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "fieldwise")
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/fieldwise"
    finally:
        subprocess.run(
            [*as_user, _bin("pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(root, ignore_errors=True)
