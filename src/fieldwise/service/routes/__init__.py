"""One router per resource; ``ROUTERS`` is what ``create_app`` mounts (append one line each)."""

from fastapi import APIRouter

from fieldwise.service.routes import evaluation_sets, files, processors

ROUTERS: tuple[APIRouter, ...] = (
    files.router,
    processors.router,
    evaluation_sets.router,
)
