"""Processors and their versions (drafted → published)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from sqlalchemy import insert, update
from sqlalchemy.exc import IntegrityError

from fieldwise.service.http.dependencies import Cursor, Limit, fetch
from fieldwise.service.http.errors import ApiError
from fieldwise.service.http.schemas import ListOf
from fieldwise.service.ids import slugify
from fieldwise.service.resources.processors import ops
from fieldwise.service.resources.processors.ops import processor_public, version_public
from fieldwise.service.resources.processors.schemas import (
    ProcessorCreate,
    ProcessorPublic,
    ProcessorUpdate,
    VerdictCreate,
    VersionCreate,
    VersionPublic,
)
from fieldwise.service.resources.processors.tables import processors, versions
from fieldwise.service.state import State, now

router = APIRouter(tags=["processors"])


@router.post("/processors", status_code=201, response_model=ProcessorPublic)
def create_processor(body: ProcessorCreate, state: State) -> ProcessorPublic:
    slug = slugify(body.name)
    if not slug:
        raise ApiError(422, "name: needs at least one letter or digit.", param="name")
    stamp = now(state)
    try:
        with state.engine.begin() as conn:
            conn.execute(
                insert(processors).values(
                    id=slug,
                    name=body.name,
                    type=body.type,
                    description=body.description,
                    confidence_threshold=None,
                    default_version_id=None,
                    created_at=stamp,
                    updated_at=stamp,
                )
            )
            row = fetch(conn, processors, slug, "processor")
    except IntegrityError:
        raise ApiError(
            409,
            f"A processor with id {slug!r} already exists.",
            param="name",
            code="already_exists",
        ) from None
    return processor_public(row)


@router.get("/processors", response_model=ListOf[ProcessorPublic])
def list_processors(
    state: State, limit: Limit = 100, cursor: Cursor = None
) -> ListOf[ProcessorPublic]:
    data, next_cursor = ops.list_processors(state.engine, limit=limit, cursor=cursor)
    return ListOf[ProcessorPublic](data=data, next_cursor=next_cursor)


@router.get("/processors/{processor_id}", response_model=ProcessorPublic)
def get_processor(processor_id: str, state: State) -> ProcessorPublic:
    with state.engine.connect() as conn:
        return processor_public(fetch(conn, processors, processor_id, "processor"))


@router.patch("/processors/{processor_id}", response_model=ProcessorPublic)
def update_processor(processor_id: str, body: ProcessorUpdate, state: State) -> ProcessorPublic:
    changes = body.model_dump(exclude_unset=True)
    if "description" in changes and changes["description"] is None:
        raise ApiError(422, "description: must be a string.", param="description")
    with state.engine.begin() as conn:
        fetch(conn, processors, processor_id, "processor")
        if changes:
            conn.execute(
                update(processors)
                .where(processors.c.id == processor_id)
                .values(**changes, updated_at=now(state))
            )
        return processor_public(fetch(conn, processors, processor_id, "processor"))


@router.post("/processors/{processor_id}/versions", status_code=201, response_model=VersionPublic)
def create_version(processor_id: str, body: VersionCreate, state: State) -> VersionPublic:
    config = state.validate_config(body.config)
    return ops.create_version(state, processor_id, config, body.description)


@router.get("/processors/{processor_id}/versions", response_model=ListOf[VersionPublic])
def list_versions(
    processor_id: str, state: State, limit: Limit = 100, cursor: Cursor = None
) -> ListOf[VersionPublic]:
    data, next_cursor = ops.list_versions(state.engine, processor_id, limit=limit, cursor=cursor)
    return ListOf[VersionPublic](data=data, next_cursor=next_cursor)


@router.get("/processors/{processor_id}/versions/{version_id}", response_model=VersionPublic)
def get_version(processor_id: str, version_id: str, state: State) -> VersionPublic:
    with state.engine.connect() as conn:
        fetch(conn, processors, processor_id, "processor")
        return version_public(
            fetch(conn, versions, version_id, "version", processor_id=processor_id)
        )


def _who(request: Request) -> str:
    """The key a request was made with, for the record: ``key <id>`` or ``operator key``."""
    principal = getattr(request.state, "principal", None)
    key_id = getattr(principal, "key_id", None)
    return f"key {key_id}" if key_id else "operator key"


@router.put(
    "/processors/{processor_id}/versions/{version_id}/verdict", response_model=VersionPublic
)
def record_verdict(
    processor_id: str, version_id: str, body: VerdictCreate, state: State, request: Request
) -> VersionPublic:
    """Record a gate's verdict on the version: publishing it after a verdict that is not a
    pass is recorded as an override (and the console asks for a typed confirmation)."""
    return ops.record_verdict(state, processor_id, version_id, body, _who(request))


@router.post(
    "/processors/{processor_id}/versions/{version_id}/publish", response_model=VersionPublic
)
def publish_version(
    processor_id: str, version_id: str, state: State, request: Request
) -> VersionPublic:
    return ops.publish_version(state, processor_id, version_id, by=_who(request))
