"""The local Document Processing Service: ``create_app(settings)`` and ways to run it.

The names load on first use: importing a submodule (``fieldwise.service.engines.parsing`` in
a worker process, say) must not import the whole FastAPI application first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fieldwise._lazy import lazy_names

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


__getattr__ = lazy_names(__name__, _HOME)
