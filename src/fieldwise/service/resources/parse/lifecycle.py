"""Parse runs (``prun_…``): the synchronous parse and the queued one a worker executes.

Output formats: ``markdown`` (default), ``text``, and ``json`` (pages, lines and words with
boxes). The output is stored as a file (purpose ``parse_output``) derived from the stored input
(purpose ``parse_input``), so deleting the run or the input removes both.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, Row, insert, select, update

from fieldwise.service.clock import Clock
from fieldwise.service.engines.parsing import ParsedDocument, ParseError
from fieldwise.service.events.outbox import record_event
from fieldwise.service.ids import isoformat, new_id
from fieldwise.service.jobs import Job, enqueue, finish_jobs
from fieldwise.service.resources.files.ops import store_file
from fieldwise.service.resources.files.tables import files
from fieldwise.service.resources.parse.cache import ParseCache
from fieldwise.service.resources.parse.tables import parse_runs
from fieldwise.service.state import ServiceState

JOB_KIND = "parse_run"
FORMATS = ("markdown", "text", "json")
_MEDIA = {
    "markdown": ("md", "text/markdown"),
    "text": ("txt", "text/plain"),
    "json": ("json", "application/json"),
}


def render(doc: ParsedDocument, fmt: str) -> Any:
    if fmt == "json":
        return doc.to_json()
    return doc.text if fmt == "text" else doc.markdown


def encode(output: Any) -> bytes:
    if isinstance(output, str):
        return output.encode()
    return json.dumps(output, ensure_ascii=False, sort_keys=True).encode()


def read_output(state: ServiceState, conn: Connection, row: Any) -> Any:
    if row.output_file_id is None:
        return None
    sha = conn.execute(select(files.c.sha256).where(files.c.id == row.output_file_id)).scalar()
    if sha is None or not state.blobs.exists(sha):
        return None
    data = state.blobs.read(sha).decode()
    return json.loads(data) if row.format == "json" else data


def insert_parse_run(
    conn: Connection,
    clock: Clock,
    *,
    fmt: str,
    filename: str,
    input_file_id: str,
    base_url: str,
    webhook_url: str | None,
    queued: bool,
) -> str:
    run_id = new_id("prun")
    stamp = isoformat(clock.now())
    conn.execute(
        insert(parse_runs).values(
            id=run_id,
            status="queued" if queued else "in_progress",
            format=fmt,
            filename=filename,
            input_file_id=input_file_id,
            webhook_url=webhook_url,
            attempts=0 if queued else 1,
            base_url=base_url,
            queued_at=stamp,
            started_at=None if queued else stamp,
            created_at=stamp,
            updated_at=stamp,
        )
    )
    enqueue(conn, clock, JOB_KIND, run_id, claimed=not queued)
    return run_id


def _output_uri(row: Any, output_file_id: str | None) -> str | None:
    return f"{row.base_url}/files/{output_file_id}" if output_file_id else None


def finish_parse_run(
    conn: Connection,
    clock: Clock,
    row: Row[Any],
    status: str,
    *,
    output_file_id: str | None = None,
    page_count: int | None = None,
    reason: str | None = None,
    message: str | None = None,
    notify: bool = True,
) -> bool:
    stamp = isoformat(clock.now())
    changed = conn.execute(
        update(parse_runs)
        .where(parse_runs.c.id == row.id, parse_runs.c.status.in_(("queued", "in_progress")))
        .values(
            status=status,
            output_file_id=output_file_id,
            page_count=page_count,
            failure_reason=reason,
            failure_message=message,
            finished_at=stamp,
            updated_at=stamp,
        )
    ).rowcount
    if not changed:
        return False
    finish_jobs(conn, clock, row.id)
    if notify:
        data: dict[str, Any] = {
            "parse_run_id": row.id,
            "status": status,
            "format": row.format,
            "output_uri": _output_uri(row, output_file_id),
            "page_count": page_count,
        }
        if status == "failed":
            data.update(failure_reason=reason, failure_message=message)
        kind = "parse.run.completed" if status == "succeeded" else "parse.run.failed"
        record_event(conn, clock, kind, data, target_url=row.webhook_url)
    return True


def execute_parse(
    state: ServiceState, cache: ParseCache, row: Row[Any], *, notify: bool
) -> tuple[str, str | None]:
    """Parse the run's input and finish the run; returns ``(status, error code)``.

    A ParseError becomes a failed run (its ``code`` as the failure reason).
    """
    with state.engine.connect() as conn:
        input_file = conn.execute(select(files).where(files.c.id == row.input_file_id)).first()
    if input_file is None:
        with state.engine.begin() as conn:
            finish_parse_run(
                conn,
                state.clock,
                row,
                "failed",
                reason="input_missing",
                message="the input was deleted",
                notify=notify,
            )
        return "failed", "input_missing"
    try:
        doc = cache.get(input_file)
    except ParseError as exc:
        with state.engine.begin() as conn:
            finish_parse_run(
                conn, state.clock, row, "failed", reason=exc.code, message=str(exc), notify=notify
            )
        return "failed", exc.code
    suffix, media = _MEDIA[row.format]
    sha, size = state.blobs.put_bytes(encode(render(doc, row.format)))
    with state.engine.begin() as conn:
        out = store_file(
            state,
            conn,
            sha256=sha,
            size=size,
            filename=f"{row.id}.{suffix}",
            content_type=media,
            purpose="parse_output",
            metadata={"parse_run_id": row.id},
            derived_from=input_file.id,
        )
        finish_parse_run(
            conn,
            state.clock,
            row,
            "succeeded",
            output_file_id=out.id,
            page_count=len(doc.pages),
            notify=notify,
        )
    return "succeeded", None


class ParseRunHandler:
    """The ``parse_run`` job kind (``POST /parse/file/async``)."""

    def __init__(self, cache: ParseCache) -> None:
        self.cache = cache

    def run(self, state: ServiceState, job: Job) -> None:
        stamp = isoformat(state.clock.now())
        with state.engine.begin() as conn:
            won = conn.execute(
                update(parse_runs)
                .where(parse_runs.c.id == job.target_id, parse_runs.c.status == "queued")
                .values(
                    status="in_progress", started_at=stamp, attempts=job.attempts, updated_at=stamp
                )
            ).rowcount
            if not won:
                finish_jobs(conn, state.clock, job.target_id)
                return
            row = conn.execute(select(parse_runs).where(parse_runs.c.id == job.target_id)).one()
        execute_parse(state, self.cache, row, notify=True)

    def fail(self, state: ServiceState, job: Job, reason: str, message: str) -> None:
        with state.engine.begin() as conn:
            row = conn.execute(select(parse_runs).where(parse_runs.c.id == job.target_id)).first()
            if row is not None:
                finish_parse_run(conn, state.clock, row, "failed", reason=reason, message=message)
            finish_jobs(conn, state.clock, job.target_id)

    def requeue(self, conn: Connection, clock: Clock, target_id: str) -> bool:
        changed = conn.execute(
            update(parse_runs)
            .where(parse_runs.c.id == target_id, parse_runs.c.status.in_(("queued", "in_progress")))
            .values(status="queued", started_at=None, updated_at=isoformat(clock.now()))
        ).rowcount
        return bool(changed)
