"""The ``python`` engine: a user function behind the same output contract.

``{"engine": "python", "entrypoint": "package.module:function"}`` imports the module and calls
``function(parsed_document)``, which must return ``{"value": {...}, "metadata": {...}}``;
metadata entries are completed (``needs_review`` from the threshold) and checked.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from fieldwise._errors import FieldwiseError
from fieldwise.service.engines.extraction.config import ExtractionConfig
from fieldwise.service.engines.extraction.output import metadata_entry
from fieldwise.service.engines.parsing import ParsedDocument

__all__ = ["ExtractionError", "resolve_entrypoint", "run_python"]


class ExtractionError(FieldwiseError):
    """A python engine could not be loaded, failed, or returned the wrong shape."""


def resolve_entrypoint(entrypoint: str) -> Callable[[ParsedDocument], Any]:
    """Import ``package.module:function`` and return the function."""
    module_name, _, attr = entrypoint.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # user code: any import failure means "cannot load"
        raise ExtractionError(f"cannot import {module_name!r}: {exc}") from exc
    function = getattr(module, attr, None)
    if not callable(function):
        raise ExtractionError(f"{entrypoint!r} is not a callable")
    return function  # type: ignore[no-any-return]


def _check(result: Any, threshold: float | None) -> dict[str, Any]:
    if not isinstance(result, Mapping) or not isinstance(result.get("value"), Mapping):
        raise ExtractionError("a python engine must return {'value': {...}, 'metadata': {...}}")
    extra = set(result) - {"value", "metadata"}
    if extra:
        raise ExtractionError(f"unexpected keys in python engine output: {sorted(extra)}")
    metadata = result.get("metadata", {})
    if not isinstance(metadata, Mapping):
        raise ExtractionError("python engine 'metadata' must be an object")
    checked: dict[str, dict[str, Any]] = {}
    for path, entry in metadata.items():
        if not isinstance(path, str) or not isinstance(entry, Mapping):
            raise ExtractionError(f"metadata[{path!r}] must be an object keyed by a dotted path")
        confidence = entry.get("confidence", 1.0)
        if isinstance(confidence, bool) or not isinstance(confidence, int | float):
            raise ExtractionError(f"metadata[{path!r}].confidence must be a number")
        if not 0 <= confidence <= 1:
            raise ExtractionError(f"metadata[{path!r}].confidence must be within 0..1")
        page = entry.get("page", 1)
        if isinstance(page, bool) or not isinstance(page, int):
            raise ExtractionError(f"metadata[{path!r}].page must be an integer")
        checked[path] = metadata_entry(
            float(confidence), page, str(entry.get("text", "")), threshold
        )
    return {"value": dict(result["value"]), "metadata": dict(sorted(checked.items()))}


def run_python(
    doc: ParsedDocument, config: ExtractionConfig, *, confidence_threshold: float | None = None
) -> dict[str, Any]:
    """Call the config's entrypoint on ``doc`` and validate what it returns."""
    if config.entrypoint is None:
        raise ExtractionError("a python engine config needs an entrypoint")
    function = resolve_entrypoint(config.entrypoint)
    try:
        result = function(doc)
    except Exception as exc:  # user code
        raise ExtractionError(f"{config.entrypoint} raised {type(exc).__name__}: {exc}") from exc
    return _check(result, confidence_threshold)
