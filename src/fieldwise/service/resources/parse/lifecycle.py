"""Parse runs (``prun_…``): the synchronous parse and the queued one a worker executes.

Output formats: ``markdown`` (default), ``text``, and ``json`` (pages, lines and words with
boxes). The output is stored as a file (purpose ``parse_output``) derived from the stored input
(purpose ``parse_input``), so deleting the run or the input removes both.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from sqlalchemy import Connection, Row, select

from fieldwise.service.clock import Clock
from fieldwise.service.engines.parsing import ParsedDocument, ParseError
from fieldwise.service.events.outbox import record_event
from fieldwise.service.jobs import Job
from fieldwise.service.jobs.durable import DurableRuns
from fieldwise.service.resources.files.ops import ParentGone, discard, store_file
from fieldwise.service.resources.files.tables import files
from fieldwise.service.resources.parse.ops_cache import ParseCache
from fieldwise.service.resources.parse.tables import parse_runs
from fieldwise.service.run_states import ACTIVE
from fieldwise.service.state import ServiceState

JOB_KIND = "parse_run"
PARSE_RUNS = DurableRuns(JOB_KIND, parse_runs, "prun")
FORMATS = ("markdown", "text", "json")
_MEDIA = {
    "markdown": ("md", "text/markdown"),
    "text": ("txt", "text/plain"),
    "json": ("json", "application/json"),
}


class _Lost(Exception):
    """The job's lease was lost while parsing: another process owns the run now."""


def render(doc: ParsedDocument, fmt: str) -> Any:
    if fmt == "json":
        return doc.to_json()
    return doc.text if fmt == "text" else doc.markdown


def encode(output: Any) -> bytes:
    if isinstance(output, str):
        return output.encode()
    return json.dumps(output, ensure_ascii=False, sort_keys=True).encode()


def decode(data: bytes, fmt: str) -> Any:
    """The output as the API shows it, from its stored bytes."""
    text = data.decode()
    return json.loads(text) if fmt == "json" else text


def read_output(state: ServiceState, conn: Connection, row: Any) -> Any:
    if row.output_file_id is None:
        return None
    sha = conn.execute(select(files.c.sha256).where(files.c.id == row.output_file_id)).scalar()
    if sha is None:
        return None
    try:
        data = state.blobs.read(sha)
    except FileNotFoundError:  # deleted, or cut short by a crash (BlobCorrupt): no output
        return None
    return decode(data, row.format)


class Outcome(NamedTuple):
    """How :func:`execute_parse` ended: ``status`` (``succeeded``, ``failed`` or ``lost``),
    the failure's error code and HTTP status, and the stored output's bytes when it succeeded
    (so the synchronous route answers with them without reading them back)."""

    status: str
    code: str | None = None
    output: bytes | None = None
    http_status: int = 422


def insert_parse_run(
    state: ServiceState,
    conn: Connection,
    *,
    fmt: str,
    filename: str,
    input_file_id: str,
    base_url: str,
    webhook_url: str | None,
    queued: bool,
) -> tuple[str, Job]:
    """A parse run, queued for a worker or (``queued=False``) held by this process's request
    under a lease; returns its id and job."""
    return PARSE_RUNS.create(
        conn,
        state.clock,
        {
            "format": fmt,
            "filename": filename,
            "input_file_id": input_file_id,
            "webhook_url": webhook_url,
            "base_url": base_url,
        },
        claimed_by=None if queued else state.leases.owner,
        lease=state.leases.duration,
    )


def _output_uri(row: Any, output_file_id: str | None) -> str | None:
    return f"{row.base_url}/files/{output_file_id}" if output_file_id else None


def finish_parse_run(
    conn: Connection,
    clock: Clock,
    row: Row[Any],
    status: str,
    *,
    job: Job | None = None,
    output_file_id: str | None = None,
    page_count: int | None = None,
    reason: str | None = None,
    message: str | None = None,
    notify: bool = True,
) -> bool:
    values = {
        "output_file_id": output_file_id,
        "page_count": page_count,
        "failure_reason": reason,
        "failure_message": message,
    }
    done = PARSE_RUNS.finish(
        conn, clock, row.id, status, job=job, from_states=ACTIVE, values=values
    )
    if done is None:
        return False
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
    state: ServiceState,
    cache: ParseCache,
    row: Row[Any],
    job: Job,
    *,
    notify: bool,
    input_file: Row[Any] | None = None,
) -> Outcome:
    """Parse the run's input and finish the run.

    A ParseError becomes a failed run (its ``code`` as the failure reason). When ``job``'s
    lease was lost meanwhile the run is left to whoever recovered it: status ``lost``.
    ``input_file``: the input's file row, when the caller holds it already (read otherwise).
    """
    if input_file is None:
        with state.engine.connect() as conn:
            input_file = conn.execute(select(files).where(files.c.id == row.input_file_id)).first()
    if input_file is None:
        return _input_missing(state, row, job, notify=notify)
    try:
        doc = cache.get(input_file)
    except FileNotFoundError:  # the input's bytes are gone (or cut short by a crash)
        return _input_missing(state, row, job, notify=notify)
    except ParseError as exc:
        with state.engine.begin() as conn:
            finish_parse_run(
                conn,
                state.clock,
                row,
                "failed",
                job=job,
                reason=exc.code,
                message=str(exc),
                notify=notify,
            )
        return Outcome("failed", exc.code, http_status=exc.http_status)
    suffix, media = _MEDIA[row.format]
    output = encode(render(doc, row.format))
    blob = state.blobs.stage_bytes(output)
    try:
        with state.engine.begin() as conn:
            out = store_file(
                state,
                conn,
                blob=blob,
                filename=f"{row.id}.{suffix}",
                content_type=media,
                purpose="parse_output",
                metadata={"parse_run_id": row.id},
                derived_from=input_file.id,
            )
            done = finish_parse_run(
                conn,
                state.clock,
                row,
                "succeeded",
                job=job,
                output_file_id=out.id,
                page_count=len(doc.pages),
                notify=notify,
            )
            if not done:
                raise _Lost  # roll back the output's file row
    except _Lost:
        discard(state, blob)  # deleted or taken over meanwhile: keep no output
        return Outcome("lost")
    except ParentGone:
        discard(state, blob)
        return _input_missing(state, row, job, notify=notify)
    except BaseException:
        discard(state, blob)
        raise
    return Outcome("succeeded", output=output)


def _input_missing(state: ServiceState, row: Row[Any], job: Job, *, notify: bool) -> Outcome:
    """The input was deleted (before or while parsing): fail the run if it still exists."""
    with state.engine.begin() as conn:
        done = finish_parse_run(
            conn,
            state.clock,
            row,
            "failed",
            job=job,
            reason="input_missing",
            message="the input was deleted",
            notify=notify,
        )
    return Outcome("failed", "input_missing") if done else Outcome("lost")
