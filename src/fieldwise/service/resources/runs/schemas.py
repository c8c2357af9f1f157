"""Wire models of runs, parse runs, workflows and batches (Create/Update vs Public)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from fieldwise.service.http.schemas import Resource

#: Most files one batch run may name; more is a 422.
MAX_BATCH_FILES = 100

RunStatus = Literal["queued", "in_progress", "succeeded", "failed", "canceled"]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Timings(Resource):
    status: RunStatus
    attempts: int
    queued_at: str
    started_at: str | None
    finished_at: str | None
    duration_ms: int | None
    failure_reason: str | None
    failure_message: str | None


class ProcessorRunCreate(_Request):
    input_path: str = Field(min_length=1, max_length=4096)
    params: dict[str, Any] = Field(
        default_factory=dict,
        description="Processor parameters; `version_id` picks the version (default: published).",
    )


class ExtractPathCreate(_Request):
    input_path: str = Field(min_length=1, max_length=4096)
    processor_id: str | None = Field(default=None, max_length=80)
    version_id: str | None = Field(default=None, max_length=40)


class ProcessorRunPublic(_Timings):
    object: Literal["processor_run"] = "processor_run"
    processor_id: str | None
    version_id: str | None
    input_path: str
    input_file_id: str
    params: dict[str, Any]
    output: dict[str, Any] | None
    output_uri: str | None
    output_file_id: str | None
    output_expired_at: str | None
    workflow_run_id: str | None
    node_id: str | None


class ParseRunPublic(_Timings):
    object: Literal["parse_run"] = "parse_run"
    format: Literal["markdown", "text", "json"]
    filename: str
    input_file_id: str | None
    output: Any = Field(description="Markdown or text (a string), or the JSON pages object.")
    output_uri: str | None
    page_count: int | None
    webhook_url: str | None


class Node(_Request):
    id: str = Field(min_length=1, max_length=100)
    type: Literal["trigger", "processor"]
    processor_id: str | None = Field(default=None, max_length=80)


class Edge(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    source: str = Field(alias="from", min_length=1, max_length=100)
    target: str = Field(alias="to", min_length=1, max_length=100)


class WorkflowCreate(_Request):
    name: str = Field(min_length=1, max_length=200)
    nodes: list[Node] = Field(min_length=1, max_length=100)
    edges: list[Edge] | None = Field(
        default=None, description="Optional `{from, to}` pairs; without them nodes run in order."
    )


class WorkflowPublic(Resource):
    object: Literal["workflow"] = "workflow"
    name: str
    nodes: list[dict[str, Any]]
    edges: list[dict[str, Any]] | None
    order: list[str]


class WorkflowRunCreate(_Request):
    input_file_id: str = Field(min_length=1, max_length=100)
    metadata: dict[str, Any] = Field(default_factory=dict)


class WorkflowRunUpdate(_Request):
    labels: list[str] | None = Field(default=None, max_length=100)
    notes: str | None = Field(default=None, max_length=10_000)
    metadata: dict[str, Any] | None = Field(default=None, description="Merged into the metadata.")


class NodeRunPublic(BaseModel):
    node_id: str
    processor_id: str | None
    run_id: str
    status: RunStatus
    output: dict[str, Any] | None
    output_uri: str | None
    failure_reason: str | None
    failure_message: str | None


class WorkflowRunPublic(_Timings):
    object: Literal["workflow_run"] = "workflow_run"
    workflow_id: str
    batch_id: str | None
    input_file_id: str
    metadata: dict[str, Any]
    labels: list[str]
    notes: str
    nodes: list[NodeRunPublic]


class BatchRunCreate(_Request):
    file_ids: list[str] = Field(
        min_length=1, description=f"Uploaded file ids, at most {MAX_BATCH_FILES} per batch."
    )
    async_: bool = Field(default=True, alias="async")

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class BatchPublic(BaseModel):
    id: str
    object: Literal["workflow_batch"] = "workflow_batch"
    workflow_id: str
    created_at: str
    updated_at: str
    async_: bool = Field(serialization_alias="async")
    file_ids: list[str]
    run_ids: list[str]
    counts: dict[str, int]
    done: bool
    runs: list[WorkflowRunPublic] | None = None
