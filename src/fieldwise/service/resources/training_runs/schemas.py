"""Wire models of training runs."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from fieldwise.service.http.schemas import RequestModel
from fieldwise.service.jobs.timings import RunTimings


class TrainingRunCreate(RequestModel):
    eval_set_id: str = Field(min_length=1, max_length=40)
    split: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="Learn from the items sync recorded in this split (give it or item_ids).",
    )
    item_ids: list[str] | None = Field(
        default=None,
        min_length=1,
        max_length=100_000,
        description="Learn from these items of the set (give them or split).",
    )
    base_version_id: str | None = Field(
        default=None,
        max_length=40,
        description="The version whose field specs the model learns (default: the published "
        "one, else the newest, else the set's recorded fields).",
    )
    params: dict[str, Any] = Field(
        default_factory=dict, description="Training parameters (`seed`, …); unknown keys are a 422."
    )


class TrainingModel(BaseModel):
    """The trained model: its content hash (the blob's name) and size in bytes."""

    sha256: str
    size: int | None


class TrainingRunPublic(RunTimings):
    object: Literal["training_run"] = "training_run"
    processor_id: str
    eval_set_id: str
    base_version_id: str | None
    split: str | None
    item_ids: list[str]
    params: dict[str, Any]
    stage: str
    progress: dict[str, int] = Field(description="`done` of `total` in the current `stage`.")
    model: TrainingModel | None
    version_id: str | None
