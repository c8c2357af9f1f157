"""A 25 KB PDF of 500 blank pages bought minutes of OCR on the request thread of a
synchronous ``/parse/file``. A synchronous parse now has a time budget
(``FIELDWISE_SYNC_PARSE_SECONDS``): past it the parse stops at the next page and the route
answers 413, pointing to ``/parse/file/async``. The service runs in a process of its own so
that the CPU it spends after answering is measured: the abandoned parse must not run on."""

from __future__ import annotations

import io
import time
from pathlib import Path

from tests.reliability.conftest import raw, wait_for
from tests.reliability.proc import cpu_seconds
from tests.service.jobs.test_crash_recovery import _serve

BUDGET = 2.0  # seconds
PAGES = 200


def _blank_pdf(pages: int) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    drawing = canvas.Canvas(out, pagesize=A4)
    for _ in range(pages):
        drawing.showPage()  # no text layer: every page goes to OCR
    drawing.save()
    return out.getvalue()


def test_a_slow_synchronous_parse_stops_at_its_budget_and_points_to_async(
    tmp_path: Path,
) -> None:
    document = _blank_pdf(PAGES)
    assert len(document) < 100 * 1024  # a small upload buying minutes of OCR
    env = {"FIELDWISE_SYNC_PARSE_SECONDS": str(BUDGET)}
    with (
        _serve(tmp_path / "svc", tmp_path / "service.log", env) as (proc, base_url),
        raw(base_url, timeout=300) as http,
    ):
        started = time.monotonic()
        response = http.post("/parse/file", files={"file": ("blank.pdf", document)})
        elapsed = time.monotonic() - started
        # The abandoned parse stopped: over the next seconds the service is idle (its
        # workers poll the queue; OCR of one page alone takes about a CPU-second).
        before = cpu_seconds(proc.pid)
        time.sleep(3.0)
        after_answer = cpu_seconds(proc.pid) - before
        assert http.get("/files").json()["data"] == []  # the refused input is gone
        # The async route has no budget: the same document is queued there.
        queued = http.post("/parse/file/async", files={"file": ("blank.pdf", document)})
        assert queued.status_code == 202, queued.text[:300]
        run_id = queued.json()["id"]
        wait_for(
            lambda: http.get(f"/parse/runs/{run_id}").json()["status"] == "in_progress",
            timeout=120,
        )
        assert http.delete(f"/parse/runs/{run_id}").status_code == 200
        assert http.get(f"/parse/runs/{run_id}").status_code == 404
    print(
        f"\n{PAGES} blank pages, budget {BUDGET:g} s: {response.status_code} after "
        f"{elapsed:.1f} s; {after_answer:.2f} CPU-seconds in the 3 s after the answer"
    )
    assert response.status_code == 413, response.text[:300]
    error = response.json()["error"]
    assert error["code"] == "parse_time_exceeded"
    assert f"not parsed within {BUDGET:g} s" in error["message"]
    assert "FIELDWISE_SYNC_PARSE_SECONDS" in error["message"]
    assert "POST /parse/file/async" in error["message"]
    # The budget and at most the page being read when it ran out (model loading included).
    assert elapsed < BUDGET + 30
    assert after_answer < 1.0
