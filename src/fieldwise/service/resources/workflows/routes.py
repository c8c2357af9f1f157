"""Workflows (spec endpoints 1-5): graphs of a trigger and processor nodes, their runs on one
file, and batch runs on many.

A workflow run runs each processor node (a processor run of its published version) on the
input file, one after another; a node that fails ends the run ``failed`` with the node named.
Batch runs take at most 100 files (``MAX_BATCH_FILES``); more, or unknown file ids, is a 422
and nothing starts. ``async: false`` waits for the whole batch up to ``wait_seconds``
(default 60, maximum 300), then answers 202 with the batch to poll.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from sqlalchemy import Connection, Row, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from fieldwise.service.http.dependencies import Cursor, Limit, fetch
from fieldwise.service.http.errors import ApiError
from fieldwise.service.http.pagination import page
from fieldwise.service.http.schemas import DeletedPublic, ListOf
from fieldwise.service.http.waiting import wait_terminal
from fieldwise.service.ids import new_id, slugify
from fieldwise.service.jobs.timings import RunStatus
from fieldwise.service.resources.files.ops import unlink
from fieldwise.service.resources.files.tables import files
from fieldwise.service.resources.workflows.lifecycle import create_workflow_run
from fieldwise.service.resources.workflows.ops_plan import plan
from fieldwise.service.resources.workflows.ops_removal import delete_workflow_runs
from fieldwise.service.resources.workflows.schemas import (
    MAX_BATCH_FILES,
    BatchPublic,
    BatchRunCreate,
    WorkflowCreate,
    WorkflowPublic,
    WorkflowRunCreate,
    WorkflowRunPublic,
    WorkflowRunUpdate,
)
from fieldwise.service.resources.workflows.tables import batches, workflow_runs, workflows
from fieldwise.service.resources.workflows.views import workflow_public, workflow_run_public
from fieldwise.service.run_states import TERMINAL
from fieldwise.service.state import ServiceState, State, now

router = APIRouter(tags=["workflows"])

MAX_BATCH_WAIT_SECONDS = 300.0


@router.post("/workflows", status_code=201, response_model=WorkflowPublic)
def create_workflow(body: WorkflowCreate, state: State) -> WorkflowPublic:
    """Create a workflow; its id is a slug of the name (409 if taken)."""
    slug = slugify(body.name)
    if not slug:
        raise ApiError(422, "name: needs at least one letter or digit.", param="name")
    stamp = now(state)
    try:
        with state.engine.begin() as conn:
            order = plan(conn, body.nodes, body.edges)
            conn.execute(
                insert(workflows).values(
                    id=slug,
                    name=body.name,
                    nodes=[n.model_dump() for n in body.nodes],
                    edges=None
                    if body.edges is None
                    else [e.model_dump(by_alias=True) for e in body.edges],
                    order=order,
                    created_at=stamp,
                    updated_at=stamp,
                )
            )
            return workflow_public(fetch(conn, workflows, slug, "workflow"))
    except IntegrityError:
        raise ApiError(
            409, f"A workflow with id {slug!r} already exists.", param="name", code="already_exists"
        ) from None


@router.get("/workflows", response_model=ListOf[WorkflowPublic])
def list_workflows(
    state: State, limit: Limit = 100, cursor: Cursor = None
) -> ListOf[WorkflowPublic]:
    with state.engine.connect() as conn:
        rows, next_cursor = page(conn, workflows, [], limit=limit, cursor=cursor)
    return ListOf[WorkflowPublic](data=[workflow_public(r) for r in rows], next_cursor=next_cursor)


@router.get("/workflows/{workflow_id}", response_model=WorkflowPublic)
def get_workflow(workflow_id: str, state: State) -> WorkflowPublic:
    with state.engine.connect() as conn:
        return workflow_public(fetch(conn, workflows, workflow_id, "workflow"))


def _run(conn: Connection, workflow_id: str, run_id: str, *, for_update: bool = False) -> Row[Any]:
    fetch(conn, workflows, workflow_id, "workflow")
    return fetch(
        conn, workflow_runs, run_id, "workflow run", for_update=for_update, workflow_id=workflow_id
    )


@router.post("/workflows/{workflow_id}/runs", status_code=201, response_model=WorkflowRunPublic)
def create_run(
    workflow_id: str, body: WorkflowRunCreate, request: Request, state: State
) -> WorkflowRunPublic:
    """Run the workflow on one uploaded file; poll the run for its status and node outputs."""
    with state.engine.begin() as conn:
        workflow = fetch(conn, workflows, workflow_id, "workflow")
        fetch_input = conn.execute(select(files.c.id).where(files.c.id == body.input_file_id))
        if fetch_input.first() is None:
            raise ApiError(
                422, f"input_file_id: no file {body.input_file_id!r}.", param="input_file_id"
            )
        run_id = create_workflow_run(
            conn,
            state.clock,
            workflow,
            input_file_id=body.input_file_id,
            metadata=body.metadata,
            base_url=state.base_url(request),
        )
        return workflow_run_public(conn, fetch(conn, workflow_runs, run_id, "workflow run"))


@router.get("/workflows/{workflow_id}/runs", response_model=ListOf[WorkflowRunPublic])
def list_runs(
    workflow_id: str,
    state: State,
    limit: Limit = 100,
    cursor: Cursor = None,
    status: Annotated[RunStatus | None, Query(description="Only runs in this state.")] = None,
    batch_id: Annotated[str | None, Query(description="Only runs of this batch.")] = None,
) -> ListOf[WorkflowRunPublic]:
    where = [workflow_runs.c.workflow_id == workflow_id]
    if status:
        where.append(workflow_runs.c.status == status)
    if batch_id:
        where.append(workflow_runs.c.batch_id == batch_id)
    with state.engine.connect() as conn:
        fetch(conn, workflows, workflow_id, "workflow")
        rows, next_cursor = page(conn, workflow_runs, where, limit=limit, cursor=cursor)
        data = [workflow_run_public(conn, r) for r in rows]
    return ListOf[WorkflowRunPublic](data=data, next_cursor=next_cursor)


@router.get("/workflows/{workflow_id}/runs/{run_id}", response_model=WorkflowRunPublic)
def get_run(workflow_id: str, run_id: str, state: State) -> WorkflowRunPublic:
    with state.engine.connect() as conn:
        return workflow_run_public(conn, _run(conn, workflow_id, run_id))


@router.patch("/workflows/{workflow_id}/runs/{run_id}", response_model=WorkflowRunPublic)
def update_run(
    workflow_id: str, run_id: str, body: WorkflowRunUpdate, state: State
) -> WorkflowRunPublic:
    """Set ``labels`` and ``notes``; ``metadata`` is merged key by key."""
    with state.engine.begin() as conn:
        # Locked: concurrent merges into the same run's metadata apply one after another.
        row = _run(conn, workflow_id, run_id, for_update=True)
        changes: dict[str, Any] = {}
        if body.labels is not None:
            changes["labels"] = list(dict.fromkeys(body.labels))
        if body.notes is not None:
            changes["notes"] = body.notes
        if body.metadata is not None:
            changes["metadata"] = {**row.metadata, **body.metadata}
        if changes:
            conn.execute(
                update(workflow_runs)
                .where(workflow_runs.c.id == run_id)
                .values(**changes, updated_at=now(state))
            )
        return workflow_run_public(conn, _run(conn, workflow_id, run_id))


@router.delete("/workflows/{workflow_id}/runs/{run_id}", response_model=DeletedPublic)
def delete_run(workflow_id: str, run_id: str, state: State) -> DeletedPublic:
    """Remove the run, its node runs and their outputs now (unfinished nodes are canceled)."""
    with state.engine.begin() as conn:
        _run(conn, workflow_id, run_id)
        unused = delete_workflow_runs(state, conn, [run_id])
    unlink(state, unused)
    return DeletedPublic(id=run_id, object="workflow_run")


def _batch_public(conn: Connection, row: Any, *, with_runs: bool) -> BatchPublic:
    counts = dict.fromkeys(("queued", "in_progress", "succeeded", "failed", "canceled"), 0)
    for status, count in conn.execute(
        select(workflow_runs.c.status, func.count())
        .where(workflow_runs.c.batch_id == row.id)
        .group_by(workflow_runs.c.status)
    ):
        counts[status] = count
    runs = None
    if with_runs:
        rows = conn.execute(
            select(workflow_runs)
            .where(workflow_runs.c.batch_id == row.id)
            .order_by(workflow_runs.c.seq)
        )
        runs = [workflow_run_public(conn, r) for r in rows]
    done = sum(counts[s] for s in TERMINAL) == len(row.run_ids)
    return BatchPublic(
        id=row.id,
        workflow_id=row.workflow_id,
        created_at=row.created_at,
        updated_at=row.updated_at,
        async_=bool(row.is_async),
        file_ids=row.file_ids,
        run_ids=row.run_ids,
        counts=counts,
        done=done,
        runs=runs,
    )


def _create_batch(
    state: ServiceState, workflow_id: str, body: BatchRunCreate, base_url: str
) -> str:
    if len(body.file_ids) > MAX_BATCH_FILES:
        raise ApiError(
            422,
            f"file_ids: at most {MAX_BATCH_FILES} files per batch, got {len(body.file_ids)}.",
            param="file_ids",
        )
    with state.engine.begin() as conn:
        workflow = fetch(conn, workflows, workflow_id, "workflow")
        known = {
            r.id for r in conn.execute(select(files.c.id).where(files.c.id.in_(body.file_ids)))
        }
        unknown = [f for f in dict.fromkeys(body.file_ids) if f not in known]
        if unknown:
            raise ApiError(422, f"file_ids: unknown files: {', '.join(unknown)}.", param="file_ids")
        batch_id = new_id("batch")
        run_ids = [
            create_workflow_run(
                conn,
                state.clock,
                workflow,
                input_file_id=f,
                metadata={},
                base_url=base_url,
                batch_id=batch_id,
            )
            for f in body.file_ids
        ]
        stamp = now(state)
        conn.execute(
            insert(batches).values(
                id=batch_id,
                workflow_id=workflow_id,
                file_ids=body.file_ids,
                run_ids=run_ids,
                is_async=int(body.async_),
                created_at=stamp,
                updated_at=stamp,
            )
        )
    return batch_id


def _load_batch(state: ServiceState, workflow_id: str, batch_id: str, *, with_runs: bool) -> Any:
    with state.engine.connect() as conn:
        fetch(conn, workflows, workflow_id, "workflow")
        row = fetch(conn, batches, batch_id, "batch", workflow_id=workflow_id)
        return _batch_public(conn, row, with_runs=with_runs)


@router.post(
    "/workflows/{workflow_id}/batch-runs",
    response_model=BatchPublic,
    response_model_by_alias=True,
    status_code=202,
    responses={200: {"model": BatchPublic, "description": "async=false and every run finished"}},
)
async def create_batch_run(
    workflow_id: str,
    body: BatchRunCreate,
    request: Request,
    state: State,
    wait_seconds: Annotated[
        float, Query(ge=0, le=MAX_BATCH_WAIT_SECONDS, description="async=false: how long to wait.")
    ] = 60.0,
) -> Any:
    """One workflow run per file. ``async: true`` answers 202 at once with the batch and its
    run ids; ``async: false`` answers 200 with every run once all are finished, or 202 with
    the batch when ``wait_seconds`` pass first."""
    batch_id = await run_in_threadpool(
        _create_batch, state, workflow_id, body, state.base_url(request)
    )
    if body.async_:
        batch = await run_in_threadpool(_load_batch, state, workflow_id, batch_id, with_runs=False)
        return JSONResponse(batch.model_dump(mode="json", by_alias=True), status_code=202)

    def load() -> Any:
        batch = _load_batch(state, workflow_id, batch_id, with_runs=False)
        return _Done(batch.done)

    await wait_terminal(state.waiters, load, wait_seconds)
    batch = await run_in_threadpool(_load_batch, state, workflow_id, batch_id, with_runs=True)
    status = 200 if batch.done else 202
    return JSONResponse(batch.model_dump(mode="json", by_alias=True), status_code=status)


class _Done:
    """Adapts a batch to :func:`wait_terminal`, which waits for a terminal ``status``."""

    def __init__(self, done: bool) -> None:
        self.status = "succeeded" if done else "queued"


@router.get(
    "/workflows/{workflow_id}/batch-runs/{batch_id}",
    response_model=BatchPublic,
    response_model_by_alias=True,
)
def get_batch_run(workflow_id: str, batch_id: str, state: State) -> BatchPublic:
    """The batch with counts of its runs by status; ``done`` once all are finished."""
    batch: BatchPublic = _load_batch(state, workflow_id, batch_id, with_runs=False)
    return batch
