"""Operations on processors and versions that other parts of the service (the console) call."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import Connection, Engine, Row, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from fieldwise.service.events.outbox import record_event
from fieldwise.service.http.dependencies import common_fields, fetch
from fieldwise.service.http.errors import ApiError
from fieldwise.service.http.pagination import page
from fieldwise.service.ids import isoformat, new_id, parse_iso
from fieldwise.service.resources.processors.schemas import (
    ProcessorPublic,
    PublishOverride,
    VerdictCreate,
    VersionPublic,
    VersionVerdict,
)
from fieldwise.service.resources.processors.tables import processors, versions
from fieldwise.service.state import ServiceState, now


def processor_public(row: Any) -> ProcessorPublic:
    return ProcessorPublic(
        **common_fields(row),
        name=row.name,
        type=row.type,
        description=row.description,
        confidence_threshold=row.confidence_threshold,
        default_version_id=row.default_version_id,
    )


def version_public(row: Any) -> VersionPublic:
    return VersionPublic(
        **common_fields(row),
        processor_id=row.processor_id,
        number=row.number,
        status=row.status,
        description=row.description,
        config=row.config,
        published_at=row.published_at,
        verdict=row.verdict,
        publish_override=row.publish_override,
    )


def failed_verdict(version: VersionPublic) -> VersionVerdict | None:
    """The version's last verdict when it is not a pass (publishing it is an override)."""
    verdict = version.verdict
    return verdict if verdict is not None and verdict.outcome != "pass" else None


def record_verdict(
    state: ServiceState, processor_id: str, version_id: str, body: VerdictCreate, by: str
) -> VersionPublic:
    """Keep ``body`` as the version's last verdict (the one a publish is checked against)."""
    verdict = VersionVerdict(**body.model_dump(), recorded_at=now(state), recorded_by=by)
    with state.engine.begin() as conn:
        fetch(conn, processors, processor_id, "processor")
        fetch(conn, versions, version_id, "version", processor_id=processor_id)
        conn.execute(
            update(versions)
            .where(versions.c.id == version_id)
            .values(verdict=verdict.model_dump(), updated_at=verdict.recorded_at)
        )
        return version_public(fetch(conn, versions, version_id, "version"))


def list_processors(
    engine: Engine, *, limit: int, cursor: str | None
) -> tuple[list[ProcessorPublic], str | None]:
    with engine.connect() as conn:
        rows, next_cursor = page(conn, processors, [], limit=limit, cursor=cursor)
    return [processor_public(r) for r in rows], next_cursor


def get_processor(engine: Engine, processor_id: str) -> ProcessorPublic:
    with engine.connect() as conn:
        return processor_public(fetch(conn, processors, processor_id, "processor"))


def list_versions(
    engine: Engine, processor_id: str, *, limit: int, cursor: str | None
) -> tuple[list[VersionPublic], str | None]:
    with engine.connect() as conn:
        fetch(conn, processors, processor_id, "processor")
        rows, next_cursor = page(
            conn, versions, [versions.c.processor_id == processor_id], limit=limit, cursor=cursor
        )
    return [version_public(r) for r in rows], next_cursor


#: Attempts at a version number before giving up (a conflict means another writer took it).
_NUMBER_ATTEMPTS = 5


def create_version(
    state: ServiceState, processor_id: str, config: dict[str, Any], description: str
) -> VersionPublic:
    """A drafted version numbered one past the processor's highest, distinct under concurrency.

    The processor's row is locked while the number is chosen; the unique (processor_id,
    number) index turns any writer that still collides into a retry, never a duplicate."""
    for attempt in range(_NUMBER_ATTEMPTS):
        try:
            return _insert_version(state, processor_id, config, description)
        except IntegrityError:
            if attempt == _NUMBER_ATTEMPTS - 1:
                raise ApiError(
                    409, "Another version took this number; try again.", code="conflict"
                ) from None
    raise AssertionError("unreachable")


def _insert_version(
    state: ServiceState, processor_id: str, config: dict[str, Any], description: str
) -> VersionPublic:
    with state.engine.begin() as conn:
        row = insert_version(conn, now(state), processor_id, config=config, description=description)
        return version_public(row)


def publish_version(
    state: ServiceState, processor_id: str, version_id: str, *, by: str = "operator"
) -> VersionPublic:
    """Publish a drafted version: the processor's default for new runs. 409 if published.

    When the version's last verdict is not a pass, the publish is an override: who (``by``),
    when and that verdict are kept on the version and in the ``processor.version.published``
    event, recorded in the same transaction. (The console asks for a typed confirmation first.)

    The processor's row is locked first, so publishes of one processor happen one after
    another: each stamps ``published_at`` later than every earlier one and sets the default in
    the same transaction, so the default is always the version published last."""
    with state.engine.begin() as conn:
        fetch(conn, processors, processor_id, "processor", for_update=True)
        stamp = _publish_stamp(conn, state, processor_id)
        # Conditional update: of two concurrent publishes exactly one sees the drafted row.
        changed = conn.execute(
            update(versions)
            .where(
                versions.c.id == version_id,
                versions.c.processor_id == processor_id,
                versions.c.status == "drafted",
            )
            .values(status="published", published_at=stamp, updated_at=stamp)
        ).rowcount
        row = fetch(conn, versions, version_id, "version", processor_id=processor_id)
        if not changed:
            raise ApiError(
                409, f"Version {version_id!r} is already published.", code="invalid_state"
            )
        failed = failed_verdict(version_public(row))
        override = None
        if failed is not None:
            override = PublishOverride(by=by, at=stamp, verdict=failed).model_dump()
            conn.execute(
                update(versions)
                .where(versions.c.id == version_id)
                .values(publish_override=override)
            )
            row = fetch(conn, versions, version_id, "version", processor_id=processor_id)
        record_event(
            conn,
            state.clock,
            "processor.version.published",
            {
                "processor_id": processor_id,
                "version_id": version_id,
                "number": row.number,
                "published_at": stamp,
                "publish_override": override,
            },
        )
        conn.execute(
            update(processors)
            .where(processors.c.id == processor_id)
            .values(default_version_id=version_id, updated_at=stamp)
        )
    return version_public(row)


def _publish_stamp(conn: Connection, state: ServiceState, processor_id: str) -> str:
    """Now, or just after the processor's latest publish when the clock has not moved past it
    (a coarse or stopped clock): publish order and ``published_at`` order never disagree."""
    latest = conn.execute(
        select(func.max(versions.c.published_at)).where(versions.c.processor_id == processor_id)
    ).scalar()
    moment = state.clock.now()
    if latest is not None and isoformat(moment) <= latest:
        moment = parse_iso(latest) + timedelta(microseconds=1)
    return isoformat(moment)


def get_version(engine: Engine, processor_id: str, version_id: str) -> VersionPublic:
    with engine.connect() as conn:
        fetch(conn, processors, processor_id, "processor")
        return version_public(
            fetch(conn, versions, version_id, "version", processor_id=processor_id)
        )


def insert_version(
    conn: Connection, stamp: str, processor_id: str, *, config: dict[str, Any], description: str
) -> Row[Any]:
    """Insert a drafted version numbered one past the processor's highest, in the caller's
    transaction (a succeeding training run creates its version in the transaction that marks
    it succeeded, so a cancel that wins the race leaves no version). The processor's row is
    locked while the number is chosen, so concurrent writers take distinct numbers."""
    fetch(conn, processors, processor_id, "processor", for_update=True)
    number = (
        conn.execute(
            select(func.coalesce(func.max(versions.c.number), 0)).where(
                versions.c.processor_id == processor_id
            )
        ).scalar_one()
        + 1
    )
    version_id = new_id("ver")
    conn.execute(
        insert(versions).values(
            id=version_id,
            processor_id=processor_id,
            number=number,
            status="drafted",
            description=description,
            config=config,
            published_at=None,
            created_at=stamp,
            updated_at=stamp,
        )
    )
    return fetch(conn, versions, version_id, "version")
