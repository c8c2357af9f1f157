"""Wire models of workflows, workflow runs and batch runs (Create/Update vs Public)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from fieldwise.service.http.schemas import RequestModel, Resource
from fieldwise.service.jobs.timings import RunStatus, RunTimings

#: Most files one batch run may name; more is a 422.
MAX_BATCH_FILES = 100


class Node(RequestModel):
    id: str = Field(min_length=1, max_length=100)
    type: Literal["trigger", "processor"]
    processor_id: str | None = Field(default=None, max_length=80)


class Edge(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    source: str = Field(alias="from", min_length=1, max_length=100)
    target: str = Field(alias="to", min_length=1, max_length=100)


class WorkflowCreate(RequestModel):
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


class WorkflowRunCreate(RequestModel):
    input_file_id: str = Field(min_length=1, max_length=100)
    metadata: dict[str, Any] = Field(default_factory=dict)


class WorkflowRunUpdate(RequestModel):
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


class WorkflowRunPublic(RunTimings):
    object: Literal["workflow_run"] = "workflow_run"
    workflow_id: str
    batch_id: str | None
    input_file_id: str
    metadata: dict[str, Any]
    labels: list[str]
    notes: str
    nodes: list[NodeRunPublic]


class BatchRunCreate(RequestModel):
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
