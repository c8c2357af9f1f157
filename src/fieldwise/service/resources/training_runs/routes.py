"""Training runs: learn a drafted processor version from an evaluation set's labelled items.

``POST /processors/{id}/training-runs`` queues a run (``queued`` → ``in_progress`` →
``succeeded`` | ``failed`` | ``canceled``, as processor runs); on success it has created a
drafted version whose config names the trained model (``version_id``, ``model.sha256``).
Cancel and delete work as for processor runs; a canceled training leaves no version.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from sqlalchemy import Connection, Row, delete

from fieldwise.service.http.dependencies import Cursor, Limit, fetch
from fieldwise.service.http.errors import ApiError, not_found
from fieldwise.service.http.pagination import page
from fieldwise.service.http.schemas import DeletedPublic, ListOf
from fieldwise.service.jobs import delete_jobs
from fieldwise.service.jobs.timings import RunStatus
from fieldwise.service.resources.processors.tables import processors
from fieldwise.service.resources.training_runs.lifecycle import (
    TRAININGS,
    create_training_run,
)
from fieldwise.service.resources.training_runs.ops import resolve_request, training_public
from fieldwise.service.resources.training_runs.schemas import TrainingRunCreate, TrainingRunPublic
from fieldwise.service.resources.training_runs.tables import training_runs
from fieldwise.service.run_states import TERMINAL
from fieldwise.service.state import State

router = APIRouter(tags=["training runs"])


def _run(conn: Connection, run_id: str) -> Row[Any]:
    row = TRAININGS.get(conn, run_id)
    if row is None:
        raise not_found("training run", run_id)
    return row


@router.post(
    "/processors/{processor_id}/training-runs",
    status_code=201,
    response_model=TrainingRunPublic,
)
def create_run(processor_id: str, body: TrainingRunCreate, state: State) -> TrainingRunPublic:
    """Queue a training run on the items of ``split`` (as sync recorded them) or on
    ``item_ids`` of the evaluation set ``eval_set_id``. The same items, params and seed give
    the same model bytes (``model.sha256``)."""
    with state.engine.begin() as conn:
        values = resolve_request(conn, processor_id, body)
        run_id = create_training_run(conn, state.clock, values)
        return training_public(_run(conn, run_id))


@router.get("/processors/{processor_id}/training-runs", response_model=ListOf[TrainingRunPublic])
def list_runs(
    processor_id: str,
    state: State,
    limit: Limit = 100,
    cursor: Cursor = None,
    status: Annotated[RunStatus | None, Query(description="Only runs in this state.")] = None,
) -> ListOf[TrainingRunPublic]:
    where = [training_runs.c.processor_id == processor_id]
    if status:
        where.append(training_runs.c.status == status)
    with state.engine.connect() as conn:
        fetch(conn, processors, processor_id, "processor")
        rows, next_cursor = page(conn, training_runs, where, limit=limit, cursor=cursor)
    return ListOf[TrainingRunPublic](
        data=[training_public(r) for r in rows], next_cursor=next_cursor
    )


@router.get("/training-runs/{run_id}", response_model=TrainingRunPublic)
def get_run(run_id: str, state: State) -> TrainingRunPublic:
    with state.engine.connect() as conn:
        return training_public(_run(conn, run_id))


@router.post("/training-runs/{run_id}/cancel", response_model=TrainingRunPublic)
def cancel_run(run_id: str, state: State) -> TrainingRunPublic:
    """``queued`` or ``in_progress`` → ``canceled``; the worker stops at its next check and
    creates no version. 409 when the run is already finished."""
    with state.engine.begin() as conn:
        row = _run(conn, run_id)
        if row.status in TERMINAL or TRAININGS.cancel(conn, state.clock, run_id) is None:
            current = TRAININGS.get(conn, run_id)
            raise ApiError(
                409,
                f"Training run {run_id!r} is already {current.status if current else row.status}; "
                "only queued or in-progress runs can be canceled.",
                code="invalid_state",
            )
        return training_public(_run(conn, run_id))


@router.delete("/training-runs/{run_id}", response_model=DeletedPublic)
def delete_run(run_id: str, state: State) -> DeletedPublic:
    """Remove the run (an unfinished one is canceled first). The version a succeeded run
    created stays: it is a version of its processor like any other."""
    with state.engine.begin() as conn:
        _run(conn, run_id)
        TRAININGS.cancel(conn, state.clock, run_id)
        delete_jobs(conn, [run_id])
        conn.execute(delete(training_runs).where(training_runs.c.id == run_id))
    return DeletedPublic(id=run_id, object="training_run")
