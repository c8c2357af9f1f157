"""The local Document Processing Service: ``create_app(settings)`` and ways to run it."""

from fieldwise.service.app import create_app
from fieldwise.service.server import RunningService, serve, start_embedded, start_in_thread, work

__all__ = [
    "RunningService",
    "create_app",
    "serve",
    "start_embedded",
    "start_in_thread",
    "work",
]
