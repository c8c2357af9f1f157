"""Webhooks: endpoints (with signing secrets), test sends, and the
workspace signing secret that signs ``webhook_url`` notifications of ``/parse/file/async``.

Secrets are shown only in the answers that create them: ``POST /webhooks/endpoints``,
``POST /webhooks/endpoints/{id}/rotate-secret`` and ``POST /webhooks/workspace-secret/rotate``.
"""

from __future__ import annotations

from datetime import timedelta

from fastapi import APIRouter, Request

from fieldwise.service.events.webhooks.signing import rotate_workspace_secret, workspace_row
from fieldwise.service.http.dependencies import Cursor, Limit
from fieldwise.service.http.schemas import DeletedPublic, ListOf
from fieldwise.service.resources.deliveries.schemas import DeliveryPublic
from fieldwise.service.resources.webhook_endpoints import ops
from fieldwise.service.resources.webhook_endpoints.schemas import (
    EndpointCreate,
    EndpointPublic,
    EndpointUpdate,
    EndpointWithSecret,
    RotateSecret,
    TestDelivery,
    WorkspaceSecretPublic,
    WorkspaceSecretWithSecret,
)
from fieldwise.service.state import State

router = APIRouter(tags=["webhooks"])


@router.post("/webhooks/endpoints", status_code=201, response_model=EndpointWithSecret)
def create_endpoint(body: EndpointCreate, state: State) -> EndpointWithSecret:
    """Register an endpoint; the answer shows its signing secret once."""
    return ops.create_endpoint(state, body)


@router.get("/webhooks/endpoints", response_model=ListOf[EndpointPublic])
def list_endpoints(
    state: State, limit: Limit = 100, cursor: Cursor = None
) -> ListOf[EndpointPublic]:
    data, next_cursor = ops.list_endpoints(state, limit=limit, cursor=cursor)
    return ListOf[EndpointPublic](data=data, next_cursor=next_cursor)


@router.get("/webhooks/endpoints/{endpoint_id}", response_model=EndpointPublic)
def get_endpoint(endpoint_id: str, state: State) -> EndpointPublic:
    return ops.get_endpoint(state, endpoint_id)


@router.patch("/webhooks/endpoints/{endpoint_id}", response_model=EndpointPublic)
def update_endpoint(endpoint_id: str, body: EndpointUpdate, state: State) -> EndpointPublic:
    return ops.update_endpoint(state, endpoint_id, body)


@router.delete("/webhooks/endpoints/{endpoint_id}", response_model=DeletedPublic)
def delete_endpoint(endpoint_id: str, state: State) -> DeletedPublic:
    """Delete an endpoint; its open deliveries become dead (no e-mail: it was your choice)."""
    ops.delete_endpoint(state, endpoint_id)
    return DeletedPublic(id=endpoint_id, object="webhook_endpoint")


@router.post("/webhooks/endpoints/{endpoint_id}/rotate-secret", response_model=EndpointWithSecret)
def rotate_endpoint_secret(
    endpoint_id: str, state: State, body: RotateSecret | None = None
) -> EndpointWithSecret:
    """A new secret, shown once; the old one also signs for ``grace_period_seconds`` (24 h)."""
    grace = timedelta(seconds=(body or RotateSecret()).grace_period_seconds)
    return ops.rotate_endpoint_secret(state, endpoint_id, grace)


@router.post("/webhooks/test", response_model=DeliveryPublic)
def send_test(body: TestDelivery, state: State, request: Request) -> DeliveryPublic:
    """Queue a signed test event of type ``event`` to one endpoint and answer at once with the
    delivery (``pending``); the dispatcher sends it and retries it like any other."""
    return ops.send_test(state, body.endpoint_id, body.event, state.base_url(request))


@router.get("/webhooks/workspace-secret", response_model=WorkspaceSecretPublic)
def get_workspace_secret(state: State) -> WorkspaceSecretPublic:
    """When the workspace secret was made (never the secret: rotate to obtain one)."""
    with state.engine.begin() as conn:
        row = workspace_row(conn, state.clock.now())
    return WorkspaceSecretPublic(
        created_at=row.created_at,
        updated_at=row.updated_at,
        previous_secret_expires_at=row.previous_secret_expires_at,
    )


@router.post("/webhooks/workspace-secret/rotate", response_model=WorkspaceSecretWithSecret)
def rotate_workspace(state: State, body: RotateSecret | None = None) -> WorkspaceSecretWithSecret:
    """A new workspace secret, shown once; it signs every ``webhook_url`` notification."""
    grace = timedelta(seconds=(body or RotateSecret()).grace_period_seconds)
    with state.engine.begin() as conn:
        row = rotate_workspace_secret(conn, state.clock.now(), grace)
    return WorkspaceSecretWithSecret(
        created_at=row.created_at,
        updated_at=row.updated_at,
        previous_secret_expires_at=row.previous_secret_expires_at,
        secret=row.secret,
    )
