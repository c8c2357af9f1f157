"""Operations on evaluation runs that other parts of the service (the console) call."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from fieldwise.service.http.dependencies import common_fields, fetch
from fieldwise.service.http.pagination import page
from fieldwise.service.resources.evaluation_runs.schemas import EvaluationRunPublic
from fieldwise.service.resources.evaluation_runs.tables import evaluation_runs
from fieldwise.service.resources.evaluation_sets.tables import evaluation_sets


def run_public(row: Any) -> EvaluationRunPublic:
    return EvaluationRunPublic(
        **common_fields(row),
        eval_set_id=row.eval_set_id,
        processor_id=row.processor_id,
        version_id=row.version_id,
        status=row.status,
        attempts=row.attempts,
        metrics=row.metrics,
        failure_reason=row.failure_reason,
        failure_message=row.failure_message,
        queued_at=row.queued_at,
        started_at=row.started_at,
        finished_at=row.finished_at,
    )


def list_evaluation_runs(
    engine: Engine, eval_set_id: str, *, limit: int, cursor: str | None
) -> tuple[list[EvaluationRunPublic], str | None]:
    """The evaluation runs of one set, oldest first."""
    where = [evaluation_runs.c.eval_set_id == eval_set_id]
    with engine.connect() as conn:
        fetch(conn, evaluation_sets, eval_set_id, "evaluation set")
        rows, next_cursor = page(conn, evaluation_runs, where, limit=limit, cursor=cursor)
    return [run_public(r) for r in rows], next_cursor
