"""Typed views of the service's resources, as the client receives them.

They accept fields they do not know, so a newer server does not break an older client.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

T = TypeVar("T")


class Model(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)


class Resource(Model):
    id: str
    object: str
    created_at: str
    updated_at: str


class Page(Model, Generic[T]):
    """One page of a list; ``next_cursor`` is None on the last page."""

    object: str = "list"
    data: list[T]
    next_cursor: str | None = None


class Deleted(Model):
    id: str
    object: str
    deleted: bool


class File(Resource):
    filename: str
    content_type: str
    size: int
    sha256: str
    purpose: str = "upload"
    derived_from: str | None = None
    metadata: dict[str, Any] = {}


class Processor(Resource):
    name: str
    type: str
    description: str = ""
    confidence_threshold: float | None = None
    default_version_id: str | None = None


class VersionVerdict(Model):
    """A gate's verdict recorded on a version (the service's verdict extension)."""

    outcome: str
    runset_id: str | None = None
    evaluation_run_id: str | None = None
    policy: str | None = None
    reasons: list[str] = []
    recorded_at: str = ""
    recorded_by: str = ""


class PublishOverride(Model):
    """A version published although its last recorded verdict was not a pass: who, when,
    and that verdict."""

    by: str
    at: str
    verdict: VersionVerdict


class Version(Resource):
    processor_id: str
    number: int
    status: str
    description: str = ""
    config: dict[str, Any] = {}
    published_at: str | None = None
    #: Absent on a service without the verdict extension (docs/service.md).
    verdict: VersionVerdict | None = None
    publish_override: PublishOverride | None = None


class EvaluationSet(Resource):
    name: str
    description: str = ""
    metadata: dict[str, Any] = {}
    item_count: int = 0
    #: How many writes the set and its items have seen (None from a server that does not
    #: count them).
    revision: int | None = None


class Item(Resource):
    eval_set_id: str
    file_id: str
    ground_truth: dict[str, Any]
    metadata: dict[str, Any] = {}


# Webhooks


class WebhookEndpoint(Resource):
    """A registered endpoint; ``secret`` is set only in the create and rotate answers."""

    url: str
    description: str = ""
    events: list[str] = []
    enabled: bool = True
    previous_secret_expires_at: str | None = None
    secret: str | None = None


class WebhookAttempt(Model):
    started_at: str
    trigger: str
    url: str
    status_code: int | None = None
    latency_ms: float = 0.0
    error: str | None = None
    response_excerpt: str | None = None


class WebhookDelivery(Resource):
    event_id: str
    event_type: str
    endpoint_id: str | None = None
    url: str
    state: str
    attempt_count: int = 0
    next_attempt_at: str | None = None
    delivered_at: str | None = None
    last_status_code: int | None = None
    last_error: str | None = None
    payload: dict[str, Any] = {}
    attempts: list[WebhookAttempt] = []


class WorkspaceSecret(Model):
    """The workspace signing secret's dates; ``secret`` only in the rotate answer."""

    object: str = "webhook_workspace_secret"
    created_at: str
    updated_at: str
    previous_secret_expires_at: str | None = None
    secret: str | None = None


class WebhookNotification(Resource):
    delivery_id: str
    recipients: list[str] = []
    subject: str
    body: str
    status: str
    tries: int = 0
    error: str | None = None


# Runs, parse runs, workflows and batches (service/runs)


class Run(Resource):
    """A processor run; ``output`` and ``output_uri`` are set once it succeeded."""

    status: str
    processor_id: str | None = None
    version_id: str | None = None
    input_path: str = ""
    input_file_id: str | None = None
    params: dict[str, Any] = {}
    output: dict[str, Any] | None = None
    output_uri: str | None = None
    output_file_id: str | None = None
    failure_reason: str | None = None
    failure_message: str | None = None
    attempts: int = 0
    queued_at: str | None = None
    started_at: str | None = None
    finished_at: str | None = None
    duration_ms: int | None = None
    workflow_run_id: str | None = None
    node_id: str | None = None


class ParseRun(Resource):
    status: str
    format: str
    filename: str = ""
    output: Any = None
    output_uri: str | None = None
    page_count: int | None = None
    webhook_url: str | None = None
    failure_reason: str | None = None
    failure_message: str | None = None


class Workflow(Resource):
    name: str
    nodes: list[dict[str, Any]]
    edges: list[dict[str, Any]] | None = None
    order: list[str] = []


class WorkflowRun(Resource):
    status: str
    workflow_id: str
    batch_id: str | None = None
    input_file_id: str
    metadata: dict[str, Any] = {}
    labels: list[str] = []
    notes: str = ""
    nodes: list[dict[str, Any]] = []
    failure_reason: str | None = None
    failure_message: str | None = None
    queued_at: str | None = None
    started_at: str | None = None
    finished_at: str | None = None


class Batch(Model):
    id: str
    object: str
    workflow_id: str
    file_ids: list[str]
    run_ids: list[str]
    counts: dict[str, int]
    done: bool
    runs: list[WorkflowRun] | None = None


# Evaluation runs (service/evaluations)


class EvaluationRun(Resource):
    """A processor version scored on an evaluation set by the service; ``metrics`` once done."""

    eval_set_id: str
    processor_id: str
    version_id: str
    status: str
    attempts: int = 0
    metrics: dict[str, Any] | None = None
    failure_reason: str | None = None
    failure_message: str | None = None
    queued_at: str | None = None
    started_at: str | None = None
    finished_at: str | None = None


class EvaluationResult(Model):
    """One scored cell of an evaluation run (``row`` set for array cells)."""

    object: str = "evaluation_result"
    evaluation_run_id: str
    item_id: str
    file_id: str
    processor_run_id: str
    run_status: str
    field: str
    row: int | None = None
    expected: Any = None
    predicted: Any = None
    outcome: str
    confidence: float | None = None
    score: float | None = None


class TrainingRun(Resource):
    """A training run: a drafted version learned from labelled items (``version_id`` and
    ``model`` once it succeeded); ``progress`` is ``done`` of ``total`` in ``stage``."""

    processor_id: str
    eval_set_id: str
    status: str
    base_version_id: str | None = None
    split: str | None = None
    item_ids: list[str] = []
    params: dict[str, Any] = {}
    stage: str = ""
    progress: dict[str, int] = {}
    model: dict[str, Any] | None = None
    version_id: str | None = None
    attempts: int = 0
    failure_reason: str | None = None
    failure_message: str | None = None
    queued_at: str | None = None
    started_at: str | None = None
    finished_at: str | None = None
