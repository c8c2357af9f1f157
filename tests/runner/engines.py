"""Python engines for runner tests (entrypoints ``tests.runner.engines:*``)."""

from __future__ import annotations

import time
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


def slower(doc: ParsedDocument) -> dict[str, Any]:
    """So slow that a run the runner sees in flight is still running on the server."""
    time.sleep(0.8)
    return {"value": {"first": doc.text.split("\n", 1)[0]}, "metadata": {}}
