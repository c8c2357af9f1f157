"""Python engines used by test_python_engine (entrypoints
``tests.service.engines.extraction.custom_engine:*``)."""

from __future__ import annotations

from typing import Any

from fieldwise.service.engines.parsing import ParsedDocument


def first_line(doc: ParsedDocument) -> dict[str, Any]:
    line = doc.pages[0].lines[0]
    return {
        "value": {"first_line": line.text, "pages": len(doc.pages)},
        "metadata": {"first_line": {"confidence": 0.4, "page": 1, "text": line.text}},
    }


def wrong_shape(doc: ParsedDocument) -> Any:
    return ["not", "a", "dict"]


def bad_confidence(doc: ParsedDocument) -> dict[str, Any]:
    return {"value": {}, "metadata": {"x": {"confidence": 3}}}


def boom(doc: ParsedDocument) -> dict[str, Any]:
    raise RuntimeError("model not loaded")
