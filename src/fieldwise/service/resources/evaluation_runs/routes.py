"""Evaluation runs: score a processor version on an evaluation set inside the service.

``POST /evaluation-sets/{id}/runs`` queues an ``evrun_…`` that runs the version over every
item as real processor runs, scores the outputs with :mod:`fieldwise.compare` (the set's
``compare_spec`` when ``fieldwise sync`` recorded one) and emits ``evaluation.completed``.
``…/results`` pages through the scored cells (per item and field).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from sqlalchemy import Connection, Row, select

from fieldwise.service.http.dependencies import Cursor, Limit, fetch
from fieldwise.service.http.errors import ApiError, not_found
from fieldwise.service.http.pagination import page
from fieldwise.service.http.schemas import ListOf
from fieldwise.service.resources.evaluation_runs.lifecycle import (
    EVALUATIONS,
    cancel_evaluation,
    create_evaluation_run,
)
from fieldwise.service.resources.evaluation_runs.ops import run_public
from fieldwise.service.resources.evaluation_runs.schemas import (
    EvaluationResultPublic,
    EvaluationRunCreate,
    EvaluationRunPublic,
    EvaluationRunStatus,
    Outcome,
)
from fieldwise.service.resources.evaluation_runs.tables import evaluation_results, evaluation_runs
from fieldwise.service.resources.evaluation_sets.tables import evaluation_sets
from fieldwise.service.resources.processors.tables import processors, versions
from fieldwise.service.state import State

router = APIRouter(tags=["evaluation-runs"])

_SET = "evaluation set"


def result_public(row: Any) -> EvaluationResultPublic:
    return EvaluationResultPublic(
        evaluation_run_id=row.evaluation_run_id,
        item_id=row.item_id,
        file_id=row.file_id,
        processor_run_id=row.processor_run_id,
        run_status=row.run_status,
        field=row.field,
        row=row.row,
        expected=row.expected,
        predicted=row.predicted,
        outcome=row.outcome,
        confidence=row.confidence,
        score=row.score,
    )


def _version(conn: Connection, processor_id: str, version_id: str | None) -> str:
    """The version to evaluate: 404 unknown, 422 another processor's, 409 none published."""
    if version_id is not None:
        owner = conn.execute(
            select(versions.c.processor_id).where(versions.c.id == version_id)
        ).scalar()
        if owner is None:
            raise not_found("version", version_id, param="version_id")
        if owner != processor_id:
            raise ApiError(
                422,
                f"version_id: version {version_id!r} belongs to processor {owner!r}, "
                f"not {processor_id!r}.",
                param="version_id",
            )
        return version_id
    default = conn.execute(
        select(processors.c.default_version_id).where(processors.c.id == processor_id)
    ).scalar()
    if default is None:
        raise ApiError(
            409,
            f"Processor {processor_id!r} has no published version; publish one or pass version_id.",
            code="no_published_version",
        )
    return str(default)


def _run(conn: Connection, eval_set_id: str, run_id: str) -> Row[Any]:
    fetch(conn, evaluation_sets, eval_set_id, _SET)
    row = EVALUATIONS.get(conn, run_id)
    if row is None or row.eval_set_id != eval_set_id:
        raise not_found("evaluation run", run_id)
    return row


@router.post(
    "/evaluation-sets/{eval_set_id}/runs", status_code=201, response_model=EvaluationRunPublic
)
def create_evaluation(
    eval_set_id: str, body: EvaluationRunCreate, request: Request, state: State
) -> EvaluationRunPublic:
    """Queue an evaluation of ``processor_id`` (``version_id``, default the published one)
    over every item of the set. Poll it until ``succeeded`` for its ``metrics``."""
    with state.engine.begin() as conn:
        fetch(conn, evaluation_sets, eval_set_id, _SET)
        if (
            conn.execute(
                select(processors.c.id).where(processors.c.id == body.processor_id)
            ).first()
            is None
        ):
            raise not_found("processor", body.processor_id, param="processor_id")
        run_id = create_evaluation_run(
            conn,
            state.clock,
            eval_set_id=eval_set_id,
            processor_id=body.processor_id,
            version_id=_version(conn, body.processor_id, body.version_id),
            base_url=state.base_url(request),
        )
        return run_public(EVALUATIONS.get(conn, run_id))


@router.get("/evaluation-sets/{eval_set_id}/runs", response_model=ListOf[EvaluationRunPublic])
def list_evaluations(
    eval_set_id: str,
    state: State,
    limit: Limit = 100,
    cursor: Cursor = None,
    status: Annotated[EvaluationRunStatus | None, Query(description="Only in this state.")] = None,
    processor_id: Annotated[str | None, Query(description="Only of this processor.")] = None,
) -> ListOf[EvaluationRunPublic]:
    where = [evaluation_runs.c.eval_set_id == eval_set_id]
    if status:
        where.append(evaluation_runs.c.status == status)
    if processor_id:
        where.append(evaluation_runs.c.processor_id == processor_id)
    with state.engine.connect() as conn:
        fetch(conn, evaluation_sets, eval_set_id, _SET)
        rows, next_cursor = page(conn, evaluation_runs, where, limit=limit, cursor=cursor)
    return ListOf[EvaluationRunPublic](data=[run_public(r) for r in rows], next_cursor=next_cursor)


@router.get("/evaluation-sets/{eval_set_id}/runs/{run_id}", response_model=EvaluationRunPublic)
def get_evaluation(eval_set_id: str, run_id: str, state: State) -> EvaluationRunPublic:
    with state.engine.connect() as conn:
        return run_public(_run(conn, eval_set_id, run_id))


@router.post(
    "/evaluation-sets/{eval_set_id}/runs/{run_id}/cancel", response_model=EvaluationRunPublic
)
def cancel_evaluation_run(eval_set_id: str, run_id: str, state: State) -> EvaluationRunPublic:
    """``queued`` or ``in_progress`` → ``canceled`` (its unfinished processor runs too);
    409 when it already finished."""
    with state.engine.begin() as conn:
        row = _run(conn, eval_set_id, run_id)
        if not cancel_evaluation(conn, state.clock, run_id):
            current = EVALUATIONS.get(conn, run_id)
            raise ApiError(
                409,
                f"Evaluation run {run_id!r} is already "
                f"{current.status if current else row.status}; only queued or in-progress "
                "evaluation runs can be canceled.",
                code="invalid_state",
            )
        return run_public(EVALUATIONS.get(conn, run_id))


@router.get(
    "/evaluation-sets/{eval_set_id}/runs/{run_id}/results",
    response_model=ListOf[EvaluationResultPublic],
)
def list_results(
    eval_set_id: str,
    run_id: str,
    state: State,
    limit: Limit = 100,
    cursor: Cursor = None,
    item_id: Annotated[str | None, Query(description="Only cells of this item.")] = None,
    field: Annotated[str | None, Query(description="Only cells of this field.")] = None,
    outcome: Annotated[Outcome | None, Query(description="Only cells with this outcome.")] = None,
) -> ListOf[EvaluationResultPublic]:
    """The scored cells, by item, field and row (empty until the run succeeded)."""
    where = [evaluation_results.c.evaluation_run_id == run_id]
    for column, value in (("item_id", item_id), ("field", field), ("outcome", outcome)):
        if value is not None:
            where.append(evaluation_results.c[column] == value)
    with state.engine.connect() as conn:
        _run(conn, eval_set_id, run_id)
        rows, next_cursor = page(conn, evaluation_results, where, limit=limit, cursor=cursor)
    return ListOf[EvaluationResultPublic](
        data=[result_public(r) for r in rows], next_cursor=next_cursor
    )
