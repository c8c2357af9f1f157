"""Python engines for runner tests (entrypoints ``tests.runner.engines:*``)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from fieldwise.service.engines.parsing import ParsedDocument


def constant(doc: ParsedDocument) -> dict[str, Any]:
    """The cheapest possible engine: measures the harness, not extraction."""
    return {"value": {"kind": "invoice"}, "metadata": {"kind": {"confidence": 1.0, "page": 1}}}


def slow(doc: ParsedDocument) -> dict[str, Any]:
    """Slow enough that a runner can be killed half-way through a small set."""
    time.sleep(0.15)
    return {"value": {"first": doc.text.split("\n", 1)[0]}, "metadata": {}}


def fail_marked(doc: ParsedDocument) -> dict[str, Any]:
    """Fails on documents that contain the word FAIL, echoes the first line otherwise."""
    if "FAIL" in doc.text:
        raise RuntimeError("document marked to fail")
    return {"value": {"first": doc.text.split("\n", 1)[0]}, "metadata": {}}


#: The environment variable naming the hold file of :func:`held` (set by the test; the
#: service runs in the test's process), and the one saying how many runs go through first.
HOLD_ENV = "FW_TEST_HOLD"
PASS_ENV = "FW_TEST_HOLD_PASS"
_HOLD_GUARD_S = 300.0


def held(doc: ParsedDocument) -> dict[str, Any]:
    """The first ``$FW_TEST_HOLD_PASS`` runs (default 1) echo the first line at once; every
    later run creates ``<hold>.held`` and waits while the hold file exists.

    A test can then act (kill or interrupt the runner) while runs are observably in flight on
    the server and a known number of records is written, then let them go by deleting the
    file. The wait gives up after 300 s, a guard against a test that never releases.
    """
    hold = Path(os.environ[HOLD_ENV])
    for slot in range(int(os.environ.get(PASS_ENV, "1"))):
        try:
            Path(f"{hold}.pass{slot}").touch(exist_ok=False)  # atomic: one run per slot
        except FileExistsError:
            continue
        break
    else:
        Path(f"{hold}.held").touch()
        deadline = time.monotonic() + _HOLD_GUARD_S
        while hold.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
    return {"value": {"first": doc.text.split("\n", 1)[0]}, "metadata": {}}
