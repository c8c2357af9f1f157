"""Parsing (spec endpoints 15, 16, 17): ``POST /parse/file``, ``POST /parse/file/async``,
``GET`` and ``DELETE /parse/runs/{parse_run_id}``.

Formats read: PDF (text layer, OCR for pages without one), PNG/JPEG/TIFF (OCR), DOCX, HTML,
plain text, CSV. Limits: the upload limit (``FIELDWISE_MAX_UPLOAD_MB``, default 100 MB, else
413) and 500 pages per document (else 422). An unsupported type answers 415; an empty,
truncated, damaged or encrypted document 422 with a message saying which. A synchronous parse
has a time budget (``FIELDWISE_SYNC_PARSE_SECONDS``, default 30 s): past it the parse stops
and answers 413, pointing to the async route.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool

from fieldwise.service.engines.parsing import TimeBudgetExceeded
from fieldwise.service.events.webhooks.ssrf import UnsafeUrl, check_registration
from fieldwise.service.http.dependencies import common_fields
from fieldwise.service.http.errors import ApiError, not_found
from fieldwise.service.http.schemas import DeletedPublic
from fieldwise.service.jobs import Job
from fieldwise.service.jobs.timings import duration_ms
from fieldwise.service.resources.files.ops import (
    discard,
    require_multipart,
    stage_upload,
    store_file,
    store_upload,
    unlink,
)
from fieldwise.service.resources.parse.lifecycle import (
    FORMATS,
    decode,
    execute_parse,
    insert_parse_run,
    read_output,
)
from fieldwise.service.resources.parse.ops_cache import ParseCache
from fieldwise.service.resources.parse.ops_removal import delete_parse_runs
from fieldwise.service.resources.parse.schemas import ParseRunPublic
from fieldwise.service.resources.parse.tables import parse_runs
from fieldwise.service.state import ServiceState, State

router = APIRouter(tags=["parse"])


def _form_schema(extra: dict[str, Any]) -> dict[str, Any]:
    properties = {"file": {"type": "string", "format": "binary"}, **extra}
    return {
        "requestBody": {
            "required": True,
            "content": {
                "multipart/form-data": {
                    "schema": {
                        "type": "object",
                        "required": ["file"],
                        "properties": properties,
                        # The file and at most 8 text parts (request.form max_fields), else 400.
                        "maxProperties": 9,
                    }
                }
            },
        }
    }


_FORMAT_PART = {"type": "string", "enum": list(FORMATS), "default": "markdown"}
_SYNC_SCHEMA = _form_schema({"format": _FORMAT_PART})
_ASYNC_SCHEMA = _form_schema(
    {
        "webhook_url": {
            "type": "string",
            "description": "HTTPS URL notified (signed) with parse.run.completed/failed.",
        },
        "format": _FORMAT_PART,
    }
)


def parse_run_public(state: ServiceState, row: Any) -> ParseRunPublic:
    with state.engine.connect() as conn:
        output = read_output(state, conn, row)
    return _public(row, output)


def _public(row: Any, output: Any) -> ParseRunPublic:
    return ParseRunPublic(
        **common_fields(row),
        status=row.status,
        attempts=row.attempts,
        queued_at=row.queued_at,
        started_at=row.started_at,
        finished_at=row.finished_at,
        duration_ms=duration_ms(row),
        failure_reason=row.failure_reason,
        failure_message=row.failure_message,
        format=row.format,
        filename=row.filename,
        input_file_id=row.input_file_id,
        output=output,
        output_uri=f"{row.base_url}/files/{row.output_file_id}" if row.output_file_id else None,
        page_count=row.page_count,
        webhook_url=row.webhook_url,
    )


def _text_part(value: Any, name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ApiError(422, f"{name}: must be a text part.", param=name)
    return value.strip() or None


def _check_webhook(state: ServiceState, url: str | None) -> str | None:
    if url is None:
        return None
    try:
        check_registration(url, state.settings.webhook_allow_http)
    except UnsafeUrl as exc:
        raise ApiError(422, f"webhook_url: {exc}.", param="webhook_url") from None
    return url


def _fields(state: ServiceState, form: Any, *, with_webhook: bool) -> tuple[str, str | None]:
    """The ``format`` and ``webhook_url`` parts, checked."""
    fmt = _text_part(form.get("format"), "format") or "markdown"
    if fmt not in FORMATS:
        raise ApiError(422, f"format: one of {', '.join(FORMATS)}.", param="format")
    webhook = _check_webhook(state, _text_part(form.get("webhook_url"), "webhook_url"))
    if webhook and not with_webhook:
        raise ApiError(422, "webhook_url: only /parse/file/async notifies.", param="webhook_url")
    return fmt, webhook


async def _receive(request: Request, state: ServiceState, *, with_webhook: bool) -> dict[str, Any]:
    """Store the uploaded document; return its blob and the parsed text parts."""
    require_multipart(request, "a part named 'file'")
    async with request.form(max_files=1, max_fields=8) as form:
        fmt, webhook = _fields(state, form, with_webhook=with_webhook)
        stored = await store_upload(state, form.get("file"))
    return {"upload": stored, "format": fmt, "webhook": webhook}


def _create(
    state: ServiceState, request: Request, part: dict[str, Any], *, queued: bool
) -> tuple[Any, Job, Any]:
    try:
        return _insert(state, request, part, queued=queued)
    except BaseException:
        discard(state, part["upload"].blob)  # nothing refers to the upload's bytes
        raise


def _insert(
    state: ServiceState, request: Request, part: dict[str, Any], *, queued: bool
) -> tuple[Any, Job, Any]:
    """The parse run's row and job, and its input's file row."""
    with state.engine.begin() as conn:
        input_file = store_file(
            state,
            conn,
            blob=part["upload"].blob,
            filename=part["upload"].filename,
            content_type=part["upload"].content_type,
            purpose="parse_input",
            metadata={},
        )
        run_id, job = insert_parse_run(
            state,
            conn,
            fmt=part["format"],
            filename=part["upload"].filename,
            input_file_id=input_file.id,
            base_url=state.base_url(request),
            webhook_url=part["webhook"],
            queued=queued,
        )
        row = conn.execute(parse_runs.select().where(parse_runs.c.id == run_id)).one()
        return row, job, input_file


def _load(state: ServiceState, parse_run_id: str) -> Any:
    with state.engine.connect() as conn:
        row = conn.execute(parse_runs.select().where(parse_runs.c.id == parse_run_id)).first()
    if row is None:
        raise not_found("parse run", parse_run_id)
    return row


def _delete(state: ServiceState, parse_run_id: str) -> None:
    with state.engine.begin() as conn:
        unused = delete_parse_runs(state, conn, [parse_run_id])
    unlink(state, unused)


@router.post(
    "/parse/file", status_code=201, response_model=ParseRunPublic, openapi_extra=_SYNC_SCHEMA
)
async def parse_file(request: Request, state: State) -> ParseRunPublic:
    """Parse a document now; the parse run (``prun_…``) holds the output: Markdown (default),
    ``text``, or ``json`` (pages with lines and words and their boxes)."""
    require_multipart(request, "a part named 'file'")
    async with request.form(max_files=1, max_fields=8) as form:
        fmt, _webhook = _fields(state, form, with_webhook=False)
        # One trip to a worker thread for all of it (staging the upload, the rows, the parse,
        # the answer): every trip back wakes the event loop, which cost as much as the rows.
        return await run_in_threadpool(_parse_now, state, request, form.get("file"), fmt)


def _parse_now(state: ServiceState, request: Request, upload: object, fmt: str) -> ParseRunPublic:
    part = {"upload": stage_upload(state, upload), "format": fmt, "webhook": None}
    row, job, input_file = _create(state, request, part, queued=False)
    state.leases.hold(job)  # renewed while we parse, so no other process recovers it
    try:
        cache = ParseCache(state, max_seconds=state.settings.sync_parse_seconds)
        outcome = execute_parse(state, cache, row, job, notify=False, input_file=input_file)
    finally:
        state.leases.drop(job)
    done = _load(state, row.id)
    if outcome.status == "failed":
        _delete(state, row.id)
        message = f"file: {done.failure_message}"
        if outcome.code == TimeBudgetExceeded.code:
            message += (
                " (the budget of a synchronous parse, FIELDWISE_SYNC_PARSE_SECONDS); "
                "POST /parse/file/async parses it with no time budget."
            )
        raise ApiError(outcome.http_status, message, code=outcome.code, param="file")
    if outcome.output is not None and done.output_file_id is not None:
        return _public(done, decode(outcome.output, done.format))  # as stored, unread
    return parse_run_public(state, done)


@router.post(
    "/parse/file/async",
    status_code=202,
    response_model=ParseRunPublic,
    openapi_extra=_ASYNC_SCHEMA,
)
async def parse_file_async(request: Request, state: State) -> ParseRunPublic:
    """Queue a parse; when it ends, ``parse.run.completed`` (or ``parse.run.failed``, with
    the 415/422 reason) is delivered to ``webhook_url``, signed like every webhook."""
    part = await _receive(request, state, with_webhook=True)
    row, _job, _input = await run_in_threadpool(_create, state, request, part, queued=True)
    return parse_run_public(state, row)


@router.get("/parse/runs/{parse_run_id}", response_model=ParseRunPublic)
def get_parse_run(parse_run_id: str, state: State) -> ParseRunPublic:
    return parse_run_public(state, _load(state, parse_run_id))


@router.delete("/parse/runs/{parse_run_id}", response_model=DeletedPublic)
def delete_parse_run(parse_run_id: str, state: State) -> DeletedPublic:
    """Remove the parse run, its stored input and its outputs now, before retention would."""
    _load(state, parse_run_id)
    _delete(state, parse_run_id)
    return DeletedPublic(id=parse_run_id, object="parse_run")
