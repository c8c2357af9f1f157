"""Wire models of evaluation runs: the create request, the run, and one scored cell."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from fieldwise.service.http.schemas import Resource

EvaluationRunStatus = Literal["queued", "in_progress", "succeeded", "failed", "canceled"]
Outcome = Literal["correct", "wrong", "missed", "spurious", "both_empty"]


class EvaluationRunCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    processor_id: str = Field(min_length=1, max_length=200)
    version_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="The version to evaluate; default: the processor's published version.",
    )


class EvaluationRunPublic(Resource):
    object: Literal["evaluation_run"] = "evaluation_run"
    eval_set_id: str
    processor_id: str
    version_id: str
    status: EvaluationRunStatus
    attempts: int
    metrics: dict[str, Any] | None = Field(
        description="Once finished: overall accuracy, precision, recall, f1, "
        "all_fields_correct_rate, counts (items, runs, outcomes) and per-field figures."
    )
    failure_reason: str | None
    failure_message: str | None
    queued_at: str
    started_at: str | None
    finished_at: str | None


class EvaluationResultPublic(BaseModel):
    object: Literal["evaluation_result"] = "evaluation_result"
    evaluation_run_id: str
    item_id: str
    file_id: str
    processor_run_id: str
    run_status: str
    field: str
    row: int | None = Field(description="Array cells: the expected row (negative: unmatched).")
    expected: Any
    predicted: Any
    outcome: Outcome
    confidence: float | None
    score: float | None
