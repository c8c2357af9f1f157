"""Python engines for reliability tests (entrypoints ``tests.reliability.engines:*``)."""

from __future__ import annotations

from typing import Any

from fieldwise.service.engines.parsing import ParsedDocument


def echo(doc: ParsedDocument) -> dict[str, Any]:
    """Trivial and checkable: the document's first line, so each output names its input."""
    first = doc.text.split("\n", 1)[0]
    return {"value": {"first": first}, "metadata": {"first": {"confidence": 1.0, "page": 1}}}


def crash(doc: ParsedDocument) -> dict[str, Any]:
    """Always fails, so the service logs a failed run."""
    raise RuntimeError("engine failure for the log")
