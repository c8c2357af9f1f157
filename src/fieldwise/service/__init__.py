"""The local Document Processing Service: ``create_app(settings)`` and ways to run it.

The names load on first use: importing a submodule (``fieldwise.service.engines.parsing`` in
a worker process, say) must not import the whole FastAPI application first.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fieldwise.service.app import create_app
    from fieldwise.service.server import (
        RunningService,
        serve,
        start_embedded,
        start_in_thread,
        work,
    )

__all__ = [
    "RunningService",
    "create_app",
    "serve",
    "start_embedded",
    "start_in_thread",
    "work",
]

_HOME = {
    "create_app": "fieldwise.service.app",
    "RunningService": "fieldwise.service.server",
    "serve": "fieldwise.service.server",
    "start_embedded": "fieldwise.service.server",
    "start_in_thread": "fieldwise.service.server",
    "work": "fieldwise.service.server",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'fieldwise.service' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
