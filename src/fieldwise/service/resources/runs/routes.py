"""Processor runs (spec endpoints 8, 9, 10): create, read, list, cancel, delete.

A run is ``queued`` at creation (the create's answer, unless ``?wait=`` holds it until the
run is terminal, as on a read) and executed by the worker pool (``FIELDWISE_WORKERS``
threads): ``in_progress`` → ``succeeded`` (``output`` inline, ``output_uri`` under
``{base_url}/files/``) | ``failed`` (``failure_reason``, ``failure_message``) | ``canceled``.
Outputs older than ``FIELDWISE_RETENTION_DAYS`` (default 30) are removed by a sweeper.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from sqlalchemy import Connection, Row

from fieldwise.service.http.dependencies import Cursor, Limit, fetch
from fieldwise.service.http.errors import ApiError, not_found
from fieldwise.service.http.pagination import page
from fieldwise.service.http.schemas import DeletedPublic, ListOf
from fieldwise.service.http.waiting import MAX_WAIT_SECONDS, wait_terminal
from fieldwise.service.jobs.timings import RunStatus
from fieldwise.service.resources.files.ops import unlink
from fieldwise.service.resources.processors.tables import processors
from fieldwise.service.resources.runs.lifecycle import RUNS
from fieldwise.service.resources.runs.ops_removal import delete_processor_runs
from fieldwise.service.resources.runs.ops_submit import submit_and_hold
from fieldwise.service.resources.runs.schemas import ProcessorRunCreate, ProcessorRunPublic
from fieldwise.service.resources.runs.tables import processor_runs
from fieldwise.service.resources.runs.views import run_public
from fieldwise.service.run_states import TERMINAL
from fieldwise.service.state import State

router = APIRouter(tags=["runs"])

#: ``?wait=`` on a run's create and read: an extension of this service (a service that
#: ignores it answers at once, and a client then polls).
Wait = Annotated[
    float,
    Query(
        ge=0,
        le=MAX_WAIT_SECONDS,
        description="Hold the answer up to this many seconds while the run is unfinished "
        "(an extension of this service: answered as soon as the run is terminal).",
    ),
]


def _run(conn: Connection, processor_id: str, run_id: str) -> Row[Any]:
    fetch(conn, processors, processor_id, "processor")
    row = RUNS.get(conn, run_id)
    if row is None or row.processor_id != processor_id:
        raise not_found("run", run_id)
    return row


@router.post("/processors/{processor_id}/runs", status_code=201, response_model=ProcessorRunPublic)
async def create_run(
    processor_id: str, body: ProcessorRunCreate, request: Request, state: State, wait: Wait = 0.0
) -> ProcessorRunPublic:
    """Queue a run of the processor on ``input_path`` (a file id, ``{base_url}/files/{id}``,
    or ``file://`` under an allowed root). ``params.version_id`` picks the version; without
    it the published one (409 when none is published). With ``wait``, answered (still 201)
    once the run is terminal or ``wait`` seconds passed: one request where a create and a
    held ``GET`` would be two."""
    version_id = body.params.get("version_id")
    if version_id is not None and not isinstance(version_id, str):
        raise ApiError(422, "params.version_id: must be a string.", param="params.version_id")

    created, held = await submit_and_hold(
        state,
        wait,
        processor_id=processor_id,
        version_id=version_id,
        input_path=body.input_path,
        params=body.params,
        base_url=state.base_url(request),
    )
    # Deleted while held: the create still happened; a GET tells what became of it.
    return run_public(held if held is not None else created)


@router.get("/processors/{processor_id}/runs", response_model=ListOf[ProcessorRunPublic])
def list_runs(
    processor_id: str,
    state: State,
    limit: Limit = 100,
    cursor: Cursor = None,
    status: Annotated[RunStatus | None, Query(description="Only runs in this state.")] = None,
    version_id: Annotated[str | None, Query(description="Only runs of this version.")] = None,
) -> ListOf[ProcessorRunPublic]:
    where = [processor_runs.c.processor_id == processor_id]
    if status:
        where.append(processor_runs.c.status == status)
    if version_id:
        where.append(processor_runs.c.version_id == version_id)
    with state.engine.connect() as conn:
        fetch(conn, processors, processor_id, "processor")
        rows, next_cursor = page(conn, processor_runs, where, limit=limit, cursor=cursor)
    return ListOf[ProcessorRunPublic](data=[run_public(r) for r in rows], next_cursor=next_cursor)


@router.get("/processors/{processor_id}/runs/{run_id}", response_model=ProcessorRunPublic)
async def get_processor_run(
    processor_id: str, run_id: str, state: State, wait: Wait = 0.0
) -> ProcessorRunPublic:
    def read() -> Row[Any]:  # 404 when the run is gone, also once deleted while we wait
        with state.engine.connect() as conn:
            return _run(conn, processor_id, run_id)

    if wait > 0:
        row = await wait_terminal(state.waiters, read, wait, key=run_id)
    else:
        row = await run_in_threadpool(read)
    return run_public(row)


@router.post("/processors/{processor_id}/runs/{run_id}/cancel", response_model=ProcessorRunPublic)
def cancel_run(processor_id: str, run_id: str, state: State) -> ProcessorRunPublic:
    """``queued`` or ``in_progress`` → ``canceled``; the worker stops between stages.
    409 when the run is already finished."""
    with state.engine.begin() as conn:
        row = _run(conn, processor_id, run_id)
        if row.status in TERMINAL or RUNS.cancel(conn, state.clock, run_id) is None:
            current = RUNS.get(conn, run_id)
            raise ApiError(
                409,
                f"Run {run_id!r} is already {current.status if current else row.status}; "
                "only queued or in-progress runs can be canceled.",
                code="invalid_state",
            )
        canceled = RUNS.get(conn, run_id)
    state.waiters.notify(run_id)
    return run_public(canceled)


@router.delete("/processors/{processor_id}/runs/{run_id}", response_model=DeletedPublic)
def delete_run(processor_id: str, run_id: str, state: State) -> DeletedPublic:
    """Remove the run and its output artifacts now (an unfinished run is canceled first)."""
    with state.engine.begin() as conn:
        _run(conn, processor_id, run_id)
        unused = delete_processor_runs(state, conn, [run_id])
    unlink(state, unused)
    state.waiters.notify(run_id)
    return DeletedPublic(id=run_id, object="processor_run")
