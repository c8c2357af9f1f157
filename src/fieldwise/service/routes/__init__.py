"""One router per resource; ``ROUTERS`` is what ``create_app`` mounts (append one line each)."""

from fastapi import APIRouter

from fieldwise.service.routes import (
    evaluation_runs,
    evaluation_sets,
    extract,
    files,
    parse,
    processors,
    runs,
    webhooks,
    workflows,
)

ROUTERS: tuple[APIRouter, ...] = (
    files.router,
    processors.router,
    evaluation_sets.router,
    webhooks.router,
    runs.router,
    extract.router,
    parse.router,
    workflows.router,
    evaluation_runs.router,
)
