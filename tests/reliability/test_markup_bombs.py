"""A DOCX that inflates only about 60 times, to a few hundred MB of XML, once took the service
from 182 MB to 3.5 GB with ``/parse/file`` unanswered after 600 s, and its re-queued async job
climbed again after a restart: the zip-bomb check refused only archives past 64 MB *and* 100
times. Each bound now refuses alone, before anything is inflated, and the refusal ends an
async job failed. The service runs in a process of its own (``fieldwise serve``, its engine
processes its children), watched from here: past 1 GB for the whole tree it is killed at once,
so a regression fails fast instead of taking the machine's memory.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from tests.reliability.conftest import TERMINAL, raw, wait_for
from tests.reliability.proc import peak_rss, tree, tree_rss
from tests.service.engines.parsing.bombs import MIB, hostile_docx
from tests.service.jobs.test_crash_recovery import _serve

GIB = 1024**3
INFLATED = 256 * MIB


class _TreeWatch:
    """The peak summed RSS of a process and its children, sampled every 50 ms; the whole tree
    is killed as soon as it passes ``limit``."""

    def __init__(self, pid: int, limit: int) -> None:
        self.pid = pid
        self.limit = limit
        self.peak = 0
        self.killed = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            rss = tree_rss(self.pid)
            self.peak = max(self.peak, rss)
            if rss > self.limit:
                self.killed = True
                for pid in reversed(tree(self.pid)):
                    with suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                return

    def __enter__(self) -> _TreeWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


@contextmanager
def _watched_service(tmp_path: Path) -> Iterator[tuple[str, _TreeWatch, int]]:
    with (
        _serve(tmp_path / "svc", tmp_path / "service.log") as (proc, base_url),
        _TreeWatch(proc.pid, GIB) as watch,
    ):
        yield base_url, watch, proc.pid
    assert not watch.killed, f"the service passed {watch.limit / 2**20:.0f} MiB and was killed"


def test_a_docx_inflating_60_times_is_refused_promptly_in_bounded_memory(
    tmp_path: Path,
) -> None:
    document = hostile_docx(INFLATED)
    assert len(document) < 8 * MIB  # about 60 times smaller than its XML
    with (
        _watched_service(tmp_path) as (base_url, watch, pid),
        raw(base_url, timeout=300) as http,
    ):
        started = time.monotonic()
        response = http.post("/parse/file", files={"file": ("report.docx", document)})
        elapsed = time.monotonic() - started
        service_peak = peak_rss(pid)
        assert http.get("/files").json()["data"] == []  # up; the refused input is gone
    print(
        f"\nhostile DOCX ({len(document) / MIB:.1f} MiB, {INFLATED // MIB} MiB of XML): "
        f"{response.status_code} in {elapsed:.2f} s; peak RSS: service {service_peak / MIB:.0f}"
        f" MiB, service and its engine processes {watch.peak / MIB:.0f} MiB"
    )
    assert response.status_code == 422, response.text[:300]
    error = response.json()["error"]
    assert error["code"] == "limit_exceeded"
    assert "the limit is 33554432 (setting FIELDWISE_MAX_MARKUP_BYTES)" in error["message"]
    assert "zip bomb" in error["message"]
    assert elapsed < 30  # refused from the archive's directory, nothing inflated
    assert service_peak < GIB
    assert watch.peak < GIB


def test_an_async_parse_of_that_docx_ends_failed_not_requeued(tmp_path: Path) -> None:
    document = hostile_docx(INFLATED)
    with (
        _watched_service(tmp_path) as (base_url, watch, _pid),
        raw(base_url, timeout=300) as http,
    ):
        queued = http.post("/parse/file/async", files={"file": ("report.docx", document)})
        assert queued.status_code == 202, queued.text[:300]
        run_id = queued.json()["id"]

        def finished() -> dict[str, object] | None:
            run: dict[str, object] = http.get(f"/parse/runs/{run_id}").json()
            return run if run["status"] in TERMINAL else None

        run = wait_for(finished, timeout=120)
    print(f"\nasync parse of the hostile DOCX: peak RSS of the tree {watch.peak / MIB:.0f} MiB")
    assert run["status"] == "failed"
    assert run["attempts"] == 1  # refused in its first attempt, not lost and re-queued
    assert run["failure_reason"] == "limit_exceeded"
    assert "FIELDWISE_MAX_MARKUP_BYTES" in str(run["failure_message"])
    assert watch.peak < GIB
