"""``fieldwise serve`` prints where its console is, with the port it actually bound."""

from __future__ import annotations

import os
import selectors
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.conftest import TEST_KEY


def _lines_until(proc: subprocess.Popen[bytes], marker: str, timeout: float = 60) -> list[str]:
    """stderr lines up to the first containing ``marker`` (the bound only guards against hangs)."""
    assert proc.stderr is not None
    selector = selectors.DefaultSelector()
    selector.register(proc.stderr, selectors.EVENT_READ)
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if selector.select(timeout=1):
            line = proc.stderr.readline().decode()
            assert line, f"serve exited: {''.join(lines)}"
            lines.append(line)
            if marker in line:
                return lines
    raise AssertionError(f"no {marker!r} line: {''.join(lines)}")


def test_serve_prints_the_console_address(tmp_path: Path) -> None:
    env = {**os.environ, "FIELDWISE_API_KEYS": TEST_KEY}
    command = [sys.executable, "-c", "from fieldwise.cli import main; main()", "serve"]
    proc = subprocess.Popen(
        [*command, "--port", "0", "--data-dir", str(tmp_path / "svc")],
        env=env,
        stderr=subprocess.PIPE,
    )
    try:
        lines = _lines_until(proc, "console: ")
        console = lines[-1].split("console: ", 1)[1].split()[0]
        assert console.startswith("http://127.0.0.1:")
        assert console.endswith("/console")
        assert not console.startswith("http://127.0.0.1:0/")

        def landing() -> httpx.Response | None:
            try:
                return httpx.get(console + "/settings/api-keys", timeout=60)
            except httpx.TransportError:
                return None

        deadline = time.monotonic() + 60
        response = landing()
        while response is None and time.monotonic() < deadline:
            time.sleep(0.05)
            response = landing()
        assert response is not None
        assert response.status_code == 303
        assert response.headers["location"] == "/console/sign-in?next=/console/settings/api-keys"
    finally:
        proc.kill()
        proc.wait()
        assert proc.stderr is not None
        proc.stderr.close()
