"""Every service route as an :class:`Op`: a request description plus how to read its answer.

Ops are plain values, so :class:`~fieldwise.client.Client` and
:class:`~fieldwise.client.AsyncClient` share them: ``client.call(ops.get_processor("p"))`` or
``await aclient.call(ops.get_processor("p"))``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Generic, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from fieldwise.client._models import (
    Deleted,
    EvaluationSet,
    File,
    Item,
    Page,
    Processor,
    Version,
)

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

#: Methods that may be repeated safely after a lost response.
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE", "PATCH"})


@dataclass(frozen=True)
class Op(Generic[T]):
    """One API call: method, path, body, and the parser of a successful response."""

    method: str
    path: str
    parse: Callable[[httpx.Response], T]
    json: Any = None
    params: Mapping[str, Any] | None = None
    files: Mapping[str, Any] | None = None
    data: Mapping[str, Any] | None = None
    headers: Mapping[str, str] = field(default_factory=dict)

    @property
    def idempotent(self) -> bool:
        return self.method in IDEMPOTENT_METHODS

    def describe(self) -> str:
        return f"{self.method} {self.path}"


def _model(cls: type[M]) -> Callable[[httpx.Response], M]:
    return lambda response: cls.model_validate(response.json())


def _page(cls: type[M]) -> Callable[[httpx.Response], Page[M]]:
    return lambda response: Page[cls].model_validate(response.json())  # type: ignore[valid-type]


def _seg(value: str) -> str:
    return quote(value, safe="")


def _list_params(limit: int, cursor: str | None, **filters: Any) -> dict[str, Any]:
    params: dict[str, Any] = {"limit": limit}
    if cursor:
        params["cursor"] = cursor
    params.update({k: v for k, v in filters.items() if v is not None})
    return params


def _body(**fields: Any) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


# Files


def upload_file(
    content: bytes | IO[bytes] | Path,
    *,
    filename: str | None = None,
    content_type: str | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> Op[File]:
    """Upload bytes, an open binary file, or a path (opened lazily by the caller's client)."""
    if isinstance(content, Path):
        filename = filename or content.name
        content = content.read_bytes()
    name = filename or getattr(content, "name", None) or "upload"
    part: tuple[Any, ...] = (Path(str(name)).name, content)
    if content_type:
        part = (*part, content_type)
    data = {"metadata": json.dumps(dict(metadata))} if metadata is not None else None
    return Op("POST", "/files/upload", _model(File), files={"file": part}, data=data)


def list_files(limit: int = 100, cursor: str | None = None) -> Op[Page[File]]:
    return Op("GET", "/files", _page(File), params=_list_params(limit, cursor))


def get_file(file_id: str) -> Op[File]:
    return Op("GET", f"/files/{_seg(file_id)}", _model(File))


def get_file_content(file_id: str) -> Op[bytes]:
    return Op("GET", f"/files/{_seg(file_id)}/content", lambda r: r.content)


def delete_file(file_id: str) -> Op[Deleted]:
    return Op("DELETE", f"/files/{_seg(file_id)}", _model(Deleted))


# Processors and versions


def create_processor(
    name: str, *, type: str = "extraction", description: str = ""
) -> Op[Processor]:
    return Op(
        "POST",
        "/processors",
        _model(Processor),
        json={"name": name, "type": type, "description": description},
    )


def list_processors(limit: int = 100, cursor: str | None = None) -> Op[Page[Processor]]:
    return Op("GET", "/processors", _page(Processor), params=_list_params(limit, cursor))


def get_processor(processor_id: str) -> Op[Processor]:
    return Op("GET", f"/processors/{_seg(processor_id)}", _model(Processor))


def update_processor(
    processor_id: str,
    *,
    description: str | None = None,
    confidence_threshold: float | None = None,
) -> Op[Processor]:
    return Op(
        "PATCH",
        f"/processors/{_seg(processor_id)}",
        _model(Processor),
        json=_body(description=description, confidence_threshold=confidence_threshold),
    )


def create_version(
    processor_id: str, config: Mapping[str, Any], *, description: str = ""
) -> Op[Version]:
    return Op(
        "POST",
        f"/processors/{_seg(processor_id)}/versions",
        _model(Version),
        json={"config": dict(config), "description": description},
    )


def list_versions(
    processor_id: str, limit: int = 100, cursor: str | None = None
) -> Op[Page[Version]]:
    return Op(
        "GET",
        f"/processors/{_seg(processor_id)}/versions",
        _page(Version),
        params=_list_params(limit, cursor),
    )


def get_version(processor_id: str, version_id: str) -> Op[Version]:
    return Op(
        "GET", f"/processors/{_seg(processor_id)}/versions/{_seg(version_id)}", _model(Version)
    )


def publish_version(processor_id: str, version_id: str) -> Op[Version]:
    return Op(
        "POST",
        f"/processors/{_seg(processor_id)}/versions/{_seg(version_id)}/publish",
        _model(Version),
    )


def record_verdict(
    processor_id: str,
    version_id: str,
    *,
    outcome: str,
    runset_id: str | None = None,
    policy: str | None = None,
    reasons: Sequence[str] = (),
) -> Op[Version]:
    """Record a gate's verdict on a version (an extension of the service: see docs/service.md);
    publishing a version whose last verdict is not a pass is then recorded as an override."""
    return Op(
        "PUT",
        f"/processors/{_seg(processor_id)}/versions/{_seg(version_id)}/verdict",
        _model(Version),
        json=_body(outcome=outcome, runset_id=runset_id, policy=policy, reasons=list(reasons)),
    )


# Evaluation sets and items


def create_evaluation_set(
    name: str, *, description: str = "", metadata: Mapping[str, Any] | None = None
) -> Op[EvaluationSet]:
    return Op(
        "POST",
        "/evaluation-sets",
        _model(EvaluationSet),
        json={"name": name, "description": description, "metadata": dict(metadata or {})},
    )


def list_evaluation_sets(
    limit: int = 100, cursor: str | None = None, name: str | None = None
) -> Op[Page[EvaluationSet]]:
    return Op(
        "GET",
        "/evaluation-sets",
        _page(EvaluationSet),
        params=_list_params(limit, cursor, name=name),
    )


def get_evaluation_set(eval_set_id: str) -> Op[EvaluationSet]:
    return Op("GET", f"/evaluation-sets/{_seg(eval_set_id)}", _model(EvaluationSet))


def tagged_evaluation_set(eval_set_id: str) -> Op[tuple[EvaluationSet, str | None]]:
    """The set and its ``ETag`` from one GET (None from a server that sends no tag)."""
    return Op(
        "GET",
        f"/evaluation-sets/{_seg(eval_set_id)}",
        lambda r: (EvaluationSet.model_validate(r.json()), r.headers.get("etag") or None),
    )


def evaluation_set_etag(eval_set_id: str) -> Op[str | None]:
    """The set's ``ETag``: equal tags, equal content (None from a server that sends none)."""
    return Op(
        "GET", f"/evaluation-sets/{_seg(eval_set_id)}", lambda r: r.headers.get("etag") or None
    )


def update_evaluation_set(
    eval_set_id: str,
    *,
    name: str | None = None,
    description: str | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> Op[EvaluationSet]:
    return Op(
        "PATCH",
        f"/evaluation-sets/{_seg(eval_set_id)}",
        _model(EvaluationSet),
        json=_body(
            name=name,
            description=description,
            metadata=dict(metadata) if metadata is not None else None,
        ),
    )


def create_item(
    eval_set_id: str,
    file_id: str,
    ground_truth: Mapping[str, Any],
    *,
    metadata: Mapping[str, Any] | None = None,
) -> Op[Item]:
    return Op(
        "POST",
        f"/evaluation-sets/{_seg(eval_set_id)}/items",
        _model(Item),
        json={
            "file_id": file_id,
            "ground_truth": dict(ground_truth),
            "metadata": dict(metadata or {}),
        },
    )


def list_items(eval_set_id: str, limit: int = 100, cursor: str | None = None) -> Op[Page[Item]]:
    return Op(
        "GET",
        f"/evaluation-sets/{_seg(eval_set_id)}/items",
        _page(Item),
        params=_list_params(limit, cursor),
    )


def get_item(eval_set_id: str, item_id: str) -> Op[Item]:
    return Op("GET", f"/evaluation-sets/{_seg(eval_set_id)}/items/{_seg(item_id)}", _model(Item))


def update_item(
    eval_set_id: str,
    item_id: str,
    *,
    ground_truth: Mapping[str, Any] | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> Op[Item]:
    return Op(
        "PATCH",
        f"/evaluation-sets/{_seg(eval_set_id)}/items/{_seg(item_id)}",
        _model(Item),
        json=_body(
            ground_truth=dict(ground_truth) if ground_truth is not None else None,
            metadata=dict(metadata) if metadata is not None else None,
        ),
    )


def delete_item(eval_set_id: str, item_id: str) -> Op[Deleted]:
    return Op(
        "DELETE", f"/evaluation-sets/{_seg(eval_set_id)}/items/{_seg(item_id)}", _model(Deleted)
    )


# Webhooks

from fieldwise.client._models import (  # noqa: E402 - this section is appended by its owner
    WebhookDelivery,
    WebhookEndpoint,
    WebhookNotification,
    WorkspaceSecret,
)


def create_webhook_endpoint(
    url: str, events: list[str], *, description: str = "", enabled: bool = True
) -> Op[WebhookEndpoint]:
    """Register an endpoint; the answer's ``secret`` is shown this once."""
    return Op(
        "POST",
        "/webhooks/endpoints",
        _model(WebhookEndpoint),
        json={"url": url, "events": list(events), "description": description, "enabled": enabled},
    )


def list_webhook_endpoints(
    limit: int = 100, cursor: str | None = None
) -> Op[Page[WebhookEndpoint]]:
    return Op(
        "GET", "/webhooks/endpoints", _page(WebhookEndpoint), params=_list_params(limit, cursor)
    )


def get_webhook_endpoint(endpoint_id: str) -> Op[WebhookEndpoint]:
    return Op("GET", f"/webhooks/endpoints/{_seg(endpoint_id)}", _model(WebhookEndpoint))


def update_webhook_endpoint(
    endpoint_id: str,
    *,
    url: str | None = None,
    description: str | None = None,
    events: list[str] | None = None,
    enabled: bool | None = None,
) -> Op[WebhookEndpoint]:
    return Op(
        "PATCH",
        f"/webhooks/endpoints/{_seg(endpoint_id)}",
        _model(WebhookEndpoint),
        json=_body(
            url=url,
            description=description,
            events=list(events) if events is not None else None,
            enabled=enabled,
        ),
    )


def delete_webhook_endpoint(endpoint_id: str) -> Op[Deleted]:
    return Op("DELETE", f"/webhooks/endpoints/{_seg(endpoint_id)}", _model(Deleted))


def rotate_webhook_secret(
    endpoint_id: str, *, grace_period_seconds: int | None = None
) -> Op[WebhookEndpoint]:
    """A new secret (in the answer, once); the old one also signs during the grace period."""
    return Op(
        "POST",
        f"/webhooks/endpoints/{_seg(endpoint_id)}/rotate-secret",
        _model(WebhookEndpoint),
        json=_body(grace_period_seconds=grace_period_seconds),
    )


def list_webhook_deliveries(
    endpoint_id: str | None = None,
    limit: int = 100,
    cursor: str | None = None,
    event_id: str | None = None,
) -> Op[Page[WebhookDelivery]]:
    """Deliveries of one endpoint, or (without ``endpoint_id``) all, optionally of one event."""
    if endpoint_id is not None:
        return Op(
            "GET",
            f"/webhooks/endpoints/{_seg(endpoint_id)}/deliveries",
            _page(WebhookDelivery),
            params=_list_params(limit, cursor),
        )
    return Op(
        "GET",
        "/webhooks/deliveries",
        _page(WebhookDelivery),
        params=_list_params(limit, cursor, event_id=event_id),
    )


def get_webhook_delivery(delivery_id: str) -> Op[WebhookDelivery]:
    return Op("GET", f"/webhooks/deliveries/{_seg(delivery_id)}", _model(WebhookDelivery))


def retry_webhook_delivery(delivery_id: str) -> Op[WebhookDelivery]:
    """Re-send the same payload (same event id) now, from any state."""
    return Op("POST", f"/webhooks/deliveries/{_seg(delivery_id)}/retry", _model(WebhookDelivery))


def send_test_webhook(event: str, endpoint_id: str) -> Op[WebhookDelivery]:
    return Op(
        "POST",
        "/webhooks/test",
        _model(WebhookDelivery),
        json={"event": event, "endpoint_id": endpoint_id},
    )


def get_workspace_secret() -> Op[WorkspaceSecret]:
    return Op("GET", "/webhooks/workspace-secret", _model(WorkspaceSecret))


def rotate_workspace_secret(*, grace_period_seconds: int | None = None) -> Op[WorkspaceSecret]:
    """A new workspace secret (signs ``webhook_url`` notifications), shown in the answer once."""
    return Op(
        "POST",
        "/webhooks/workspace-secret/rotate",
        _model(WorkspaceSecret),
        json=_body(grace_period_seconds=grace_period_seconds),
    )


def list_webhook_notifications(
    limit: int = 100, cursor: str | None = None
) -> Op[Page[WebhookNotification]]:
    return Op(
        "GET",
        "/webhooks/notifications",
        _page(WebhookNotification),
        params=_list_params(limit, cursor),
    )


# Processor runs, extraction, parsing, workflows and batches (service/runs)


from fieldwise.client._models import Batch, ParseRun, Run, Workflow, WorkflowRun  # noqa: E402


def create_run(
    processor_id: str, input_path: str, *, version_id: str | None = None, **params: Any
) -> Op[Run]:
    """Queue a processor run; ``input_path`` is a file id, a ``{base_url}/files/{id}`` URL or
    an allowed ``file://`` path. Not idempotent: a retry after a lost response may start two."""
    if version_id is not None:
        params["version_id"] = version_id
    return Op(
        "POST",
        f"/processors/{_seg(processor_id)}/runs",
        _model(Run),
        json={"input_path": input_path, "params": params},
    )


def get_run(processor_id: str, run_id: str) -> Op[Run]:
    return Op("GET", f"/processors/{_seg(processor_id)}/runs/{_seg(run_id)}", _model(Run))


def list_runs(
    processor_id: str,
    limit: int = 100,
    cursor: str | None = None,
    *,
    status: str | None = None,
    version_id: str | None = None,
) -> Op[Page[Run]]:
    return Op(
        "GET",
        f"/processors/{_seg(processor_id)}/runs",
        _page(Run),
        params=_list_params(limit, cursor, status=status, version_id=version_id),
    )


def cancel_run(processor_id: str, run_id: str) -> Op[Run]:
    return Op("POST", f"/processors/{_seg(processor_id)}/runs/{_seg(run_id)}/cancel", _model(Run))


def delete_run(processor_id: str, run_id: str) -> Op[Deleted]:
    return Op("DELETE", f"/processors/{_seg(processor_id)}/runs/{_seg(run_id)}", _model(Deleted))


def extract_path(
    input_path: str,
    *,
    processor_id: str | None = None,
    version_id: str | None = None,
    wait_seconds: float | None = None,
) -> Op[Run]:
    """Run an extraction and wait for it (200 finished, or 202 with the run still going)."""
    return Op(
        "POST",
        "/extract/path",
        _model(Run),
        json=_body(input_path=input_path, processor_id=processor_id, version_id=version_id),
        params=_body(wait_seconds=wait_seconds) or None,
    )


def get_extract_run(run_id: str) -> Op[Run]:
    return Op("GET", f"/extract/runs/{_seg(run_id)}", _model(Run))


def parse_file(
    content: bytes | IO[bytes] | Path, *, filename: str | None = None, format: str = "markdown"
) -> Op[ParseRun]:
    if isinstance(content, Path):
        filename = filename or content.name
        content = content.read_bytes()
    part = (Path(str(filename or "document")).name, content)
    return Op(
        "POST", "/parse/file", _model(ParseRun), files={"file": part}, data={"format": format}
    )


def parse_file_async(
    content: bytes | IO[bytes] | Path,
    *,
    filename: str | None = None,
    webhook_url: str | None = None,
    format: str | None = None,
) -> Op[ParseRun]:
    if isinstance(content, Path):
        filename = filename or content.name
        content = content.read_bytes()
    part = (Path(str(filename or "document")).name, content)
    return Op(
        "POST",
        "/parse/file/async",
        _model(ParseRun),
        files={"file": part},
        data=_body(webhook_url=webhook_url, format=format) or None,
    )


def get_parse_run(parse_run_id: str) -> Op[ParseRun]:
    return Op("GET", f"/parse/runs/{_seg(parse_run_id)}", _model(ParseRun))


def delete_parse_run(parse_run_id: str) -> Op[Deleted]:
    return Op("DELETE", f"/parse/runs/{_seg(parse_run_id)}", _model(Deleted))


def create_workflow(
    name: str,
    nodes: Sequence[Mapping[str, Any]],
    *,
    edges: Sequence[Mapping[str, str]] | None = None,
) -> Op[Workflow]:
    return Op(
        "POST",
        "/workflows",
        _model(Workflow),
        json=_body(
            name=name,
            nodes=[dict(n) for n in nodes],
            edges=[dict(e) for e in edges] if edges is not None else None,
        ),
    )


def list_workflows(limit: int = 100, cursor: str | None = None) -> Op[Page[Workflow]]:
    return Op("GET", "/workflows", _page(Workflow), params=_list_params(limit, cursor))


def get_workflow(workflow_id: str) -> Op[Workflow]:
    return Op("GET", f"/workflows/{_seg(workflow_id)}", _model(Workflow))


def create_workflow_run(
    workflow_id: str, input_file_id: str, *, metadata: Mapping[str, Any] | None = None
) -> Op[WorkflowRun]:
    return Op(
        "POST",
        f"/workflows/{_seg(workflow_id)}/runs",
        _model(WorkflowRun),
        json={"input_file_id": input_file_id, "metadata": dict(metadata or {})},
    )


def get_workflow_run(workflow_id: str, run_id: str) -> Op[WorkflowRun]:
    return Op("GET", f"/workflows/{_seg(workflow_id)}/runs/{_seg(run_id)}", _model(WorkflowRun))


def list_workflow_runs(
    workflow_id: str,
    limit: int = 100,
    cursor: str | None = None,
    *,
    status: str | None = None,
    batch_id: str | None = None,
) -> Op[Page[WorkflowRun]]:
    return Op(
        "GET",
        f"/workflows/{_seg(workflow_id)}/runs",
        _page(WorkflowRun),
        params=_list_params(limit, cursor, status=status, batch_id=batch_id),
    )


def update_workflow_run(
    workflow_id: str,
    run_id: str,
    *,
    labels: list[str] | None = None,
    notes: str | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> Op[WorkflowRun]:
    return Op(
        "PATCH",
        f"/workflows/{_seg(workflow_id)}/runs/{_seg(run_id)}",
        _model(WorkflowRun),
        json=_body(
            labels=labels, notes=notes, metadata=dict(metadata) if metadata is not None else None
        ),
    )


def delete_workflow_run(workflow_id: str, run_id: str) -> Op[Deleted]:
    return Op("DELETE", f"/workflows/{_seg(workflow_id)}/runs/{_seg(run_id)}", _model(Deleted))


def create_batch_run(
    workflow_id: str,
    file_ids: list[str],
    *,
    run_async: bool = True,
    wait_seconds: float | None = None,
) -> Op[Batch]:
    """One workflow run per file; with ``run_async=False`` the answer waits for all of them."""
    return Op(
        "POST",
        f"/workflows/{_seg(workflow_id)}/batch-runs",
        _model(Batch),
        json={"file_ids": list(file_ids), "async": run_async},
        params=_body(wait_seconds=wait_seconds) or None,
    )


def get_batch_run(workflow_id: str, batch_id: str) -> Op[Batch]:
    return Op("GET", f"/workflows/{_seg(workflow_id)}/batch-runs/{_seg(batch_id)}", _model(Batch))


# Evaluation runs (service/evaluations)

from fieldwise.client._models import EvaluationResult, EvaluationRun  # noqa: E402


def create_evaluation_run(
    eval_set_id: str, processor_id: str, *, version_id: str | None = None
) -> Op[EvaluationRun]:
    """Queue a server-side evaluation of a version (default: the published one) on the set.
    Not idempotent: a retry after a lost response may start two."""
    return Op(
        "POST",
        f"/evaluation-sets/{_seg(eval_set_id)}/runs",
        _model(EvaluationRun),
        json=_body(processor_id=processor_id, version_id=version_id),
    )


def get_evaluation_run(eval_set_id: str, run_id: str) -> Op[EvaluationRun]:
    return Op(
        "GET", f"/evaluation-sets/{_seg(eval_set_id)}/runs/{_seg(run_id)}", _model(EvaluationRun)
    )


def list_evaluation_runs(
    eval_set_id: str,
    limit: int = 100,
    cursor: str | None = None,
    *,
    status: str | None = None,
    processor_id: str | None = None,
) -> Op[Page[EvaluationRun]]:
    return Op(
        "GET",
        f"/evaluation-sets/{_seg(eval_set_id)}/runs",
        _page(EvaluationRun),
        params=_list_params(limit, cursor, status=status, processor_id=processor_id),
    )


def cancel_evaluation_run(eval_set_id: str, run_id: str) -> Op[EvaluationRun]:
    return Op(
        "POST",
        f"/evaluation-sets/{_seg(eval_set_id)}/runs/{_seg(run_id)}/cancel",
        _model(EvaluationRun),
    )


def list_evaluation_results(
    eval_set_id: str,
    run_id: str,
    limit: int = 100,
    cursor: str | None = None,
    *,
    item_id: str | None = None,
    field: str | None = None,
    outcome: str | None = None,
) -> Op[Page[EvaluationResult]]:
    """The scored cells of an evaluation run, by item, field and row."""
    return Op(
        "GET",
        f"/evaluation-sets/{_seg(eval_set_id)}/runs/{_seg(run_id)}/results",
        _page(EvaluationResult),
        params=_list_params(limit, cursor, item_id=item_id, field=field, outcome=outcome),
    )


# Training runs

from fieldwise.client._models import TrainingRun  # noqa: E402


def create_training_run(
    processor_id: str,
    eval_set_id: str,
    *,
    split: str | None = None,
    item_ids: list[str] | None = None,
    base_version_id: str | None = None,
    params: Mapping[str, Any] | None = None,
) -> Op[TrainingRun]:
    """Queue a training run on the items of ``split`` (or ``item_ids``) of the set. Not
    idempotent: a retry after a lost response may start two."""
    return Op(
        "POST",
        f"/processors/{_seg(processor_id)}/training-runs",
        _model(TrainingRun),
        json=_body(
            eval_set_id=eval_set_id,
            split=split,
            item_ids=item_ids,
            base_version_id=base_version_id,
            params=dict(params or {}),
        ),
    )


def get_training_run(run_id: str) -> Op[TrainingRun]:
    return Op("GET", f"/training-runs/{_seg(run_id)}", _model(TrainingRun))


def list_training_runs(
    processor_id: str, limit: int = 100, cursor: str | None = None, *, status: str | None = None
) -> Op[Page[TrainingRun]]:
    return Op(
        "GET",
        f"/processors/{_seg(processor_id)}/training-runs",
        _page(TrainingRun),
        params=_list_params(limit, cursor, status=status),
    )


def cancel_training_run(run_id: str) -> Op[TrainingRun]:
    return Op("POST", f"/training-runs/{_seg(run_id)}/cancel", _model(TrainingRun))


def delete_training_run(run_id: str) -> Op[Deleted]:
    return Op("DELETE", f"/training-runs/{_seg(run_id)}", _model(Deleted))
