"""A test-only python engine that waits for a gate file named in the document.

A document line ``gate: /path`` makes :func:`gated` create ``/path.started`` and then wait
until ``/path`` exists, so a test can act (cancel, kill) while the run is in its extract stage.
The wait gives up after 30 s, or after the seconds of a ``limit: N`` line: a test that needs
the run still in flight after a long stretch of other work (a loaded machine) says so.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fieldwise.service.engines.parsing import ParsedDocument

_LIMIT_SECONDS = 30.0


def gated(doc: ParsedDocument) -> dict[str, Any]:
    gate = next(
        Path(line.split(":", 1)[1].strip())
        for line in doc.text.splitlines()
        if line.startswith("gate:")
    )
    lines = doc.text.splitlines()
    limits = [float(line.split(":", 1)[1]) for line in lines if line.startswith("limit:")]
    limit = limits[0] if limits else _LIMIT_SECONDS
    Path(f"{gate}.started").touch()
    deadline = time.monotonic() + limit
    while not gate.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return {"value": {"gate": "opened"}, "metadata": {"gate": {"confidence": 1.0, "page": 1}}}


def broken(doc: ParsedDocument) -> dict[str, Any]:
    raise RuntimeError("model not loaded")
