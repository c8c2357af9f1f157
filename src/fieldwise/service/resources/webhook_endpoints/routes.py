"""Webhooks: endpoints (with signing secrets), deliveries, test sends, retries, and the
workspace signing secret that signs ``webhook_url`` notifications of ``/parse/file/async``.

Secrets are shown only in the answers that create them: ``POST /webhooks/endpoints``,
``POST /webhooks/endpoints/{id}/rotate-secret`` and ``POST /webhooks/workspace-secret/rotate``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import delete, insert, select, update

from fieldwise.service.events.webhooks.dispatcher import attempt
from fieldwise.service.events.webhooks.signing import (
    new_secret,
    rotate_workspace_secret,
    rotation_values,
    workspace_row,
)
from fieldwise.service.events.webhooks.ssrf import UnsafeUrl, check_registration
from fieldwise.service.events.webhooks.store import OPEN_STATES, create_delivery, encode_body
from fieldwise.service.events.webhooks.tables import deliveries, endpoints, notifications
from fieldwise.service.http.dependencies import Cursor, Limit, State, fetch, now
from fieldwise.service.http.errors import ApiError, not_found
from fieldwise.service.http.pagination import page
from fieldwise.service.http.schemas import DeletedPublic, ListOf
from fieldwise.service.ids import new_id
from fieldwise.service.resources.webhook_endpoints.schemas import (
    DeliveryPublic,
    EndpointCreate,
    EndpointPublic,
    EndpointUpdate,
    EndpointWithSecret,
    NotificationPublic,
    RotateSecret,
    TestDelivery,
    WorkspaceSecretPublic,
    WorkspaceSecretWithSecret,
)
from fieldwise.service.resources.webhook_endpoints.views import (
    delivery_public,
    endpoint_public,
    endpoint_with_secret,
    notification_public,
    sample_data,
)

router = APIRouter(tags=["webhooks"])


def _checked_url(state: Any, url: str) -> str:
    try:
        check_registration(url, state.settings.webhook_allow_http)
    except UnsafeUrl as exc:
        raise ApiError(422, f"url: {exc}", param="url") from None
    return url


@router.post("/webhooks/endpoints", status_code=201, response_model=EndpointWithSecret)
def create_endpoint(body: EndpointCreate, state: State) -> EndpointWithSecret:
    """Register an endpoint; the answer shows its signing secret once."""
    url = _checked_url(state, body.url)
    stamp = now(state)
    endpoint_id = new_id("wh")
    with state.engine.begin() as conn:
        conn.execute(
            insert(endpoints).values(
                id=endpoint_id,
                url=url,
                description=body.description,
                events=body.events,
                enabled=body.enabled,
                secret=new_secret(),
                previous_secret=None,
                previous_secret_expires_at=None,
                created_at=stamp,
                updated_at=stamp,
            )
        )
        return endpoint_with_secret(fetch(conn, endpoints, endpoint_id, "webhook endpoint"))


@router.get("/webhooks/endpoints", response_model=ListOf[EndpointPublic])
def list_endpoints(
    state: State, limit: Limit = 100, cursor: Cursor = None
) -> ListOf[EndpointPublic]:
    with state.engine.connect() as conn:
        rows, next_cursor = page(conn, endpoints, [], limit=limit, cursor=cursor)
    return ListOf[EndpointPublic](data=[endpoint_public(r) for r in rows], next_cursor=next_cursor)


@router.get("/webhooks/endpoints/{endpoint_id}", response_model=EndpointPublic)
def get_endpoint(endpoint_id: str, state: State) -> EndpointPublic:
    with state.engine.connect() as conn:
        return endpoint_public(fetch(conn, endpoints, endpoint_id, "webhook endpoint"))


@router.patch("/webhooks/endpoints/{endpoint_id}", response_model=EndpointPublic)
def update_endpoint(endpoint_id: str, body: EndpointUpdate, state: State) -> EndpointPublic:
    changes = body.model_dump(exclude_unset=True)
    for name, value in changes.items():
        if value is None:
            raise ApiError(422, f"{name}: may not be null.", param=name)
    if "url" in changes:
        _checked_url(state, changes["url"])
    with state.engine.begin() as conn:
        fetch(conn, endpoints, endpoint_id, "webhook endpoint")
        if changes:
            conn.execute(
                update(endpoints)
                .where(endpoints.c.id == endpoint_id)
                .values(**changes, updated_at=now(state))
            )
        return endpoint_public(fetch(conn, endpoints, endpoint_id, "webhook endpoint"))


@router.delete("/webhooks/endpoints/{endpoint_id}", response_model=DeletedPublic)
def delete_endpoint(endpoint_id: str, state: State) -> DeletedPublic:
    """Delete an endpoint; its open deliveries become dead (no e-mail: it was your choice)."""
    with state.engine.begin() as conn:
        fetch(conn, endpoints, endpoint_id, "webhook endpoint")
        conn.execute(
            update(deliveries)
            .where(deliveries.c.endpoint_id == endpoint_id, deliveries.c.state.in_(OPEN_STATES))
            .values(
                state="dead",
                next_attempt_at=None,
                last_error="endpoint deleted",
                updated_at=now(state),
            )
        )
        conn.execute(delete(endpoints).where(endpoints.c.id == endpoint_id))
    return DeletedPublic(id=endpoint_id, object="webhook_endpoint")


@router.post("/webhooks/endpoints/{endpoint_id}/rotate-secret", response_model=EndpointWithSecret)
def rotate_endpoint_secret(
    endpoint_id: str, state: State, body: RotateSecret | None = None
) -> EndpointWithSecret:
    """A new secret, shown once; the old one also signs for ``grace_period_seconds`` (24 h)."""
    grace = timedelta(seconds=(body or RotateSecret()).grace_period_seconds)
    with state.engine.begin() as conn:
        row = fetch(conn, endpoints, endpoint_id, "webhook endpoint")
        conn.execute(
            update(endpoints)
            .where(endpoints.c.id == endpoint_id)
            .values(**rotation_values(row, state.clock.now(), grace))
        )
        return endpoint_with_secret(fetch(conn, endpoints, endpoint_id, "webhook endpoint"))


@router.get("/webhooks/endpoints/{endpoint_id}/deliveries", response_model=ListOf[DeliveryPublic])
def list_endpoint_deliveries(
    endpoint_id: str, state: State, limit: Limit = 100, cursor: Cursor = None
) -> ListOf[DeliveryPublic]:
    with state.engine.connect() as conn:
        fetch(conn, endpoints, endpoint_id, "webhook endpoint")
        where = [deliveries.c.endpoint_id == endpoint_id]
        rows, next_cursor = page(conn, deliveries, where, limit=limit, cursor=cursor)
        data = [delivery_public(conn, r) for r in rows]
    return ListOf[DeliveryPublic](data=data, next_cursor=next_cursor)


@router.get("/webhooks/deliveries", response_model=ListOf[DeliveryPublic])
def list_deliveries(
    state: State, limit: Limit = 100, cursor: Cursor = None, event_id: str | None = None
) -> ListOf[DeliveryPublic]:
    """Every delivery (also those to a request's ``webhook_url``), optionally of one event."""
    where = [deliveries.c.event_id == event_id] if event_id else []
    with state.engine.connect() as conn:
        rows, next_cursor = page(conn, deliveries, where, limit=limit, cursor=cursor)
        data = [delivery_public(conn, r) for r in rows]
    return ListOf[DeliveryPublic](data=data, next_cursor=next_cursor)


@router.get("/webhooks/deliveries/{delivery_id}", response_model=DeliveryPublic)
def get_delivery(delivery_id: str, state: State) -> DeliveryPublic:
    with state.engine.connect() as conn:
        return delivery_public(conn, fetch(conn, deliveries, delivery_id, "webhook delivery"))


@router.post("/webhooks/deliveries/{delivery_id}/retry", response_model=DeliveryPublic)
def retry_delivery(delivery_id: str, state: State) -> DeliveryPublic:
    """Send the same payload (same event id) now, from any state; the answer shows the attempt."""
    with state.engine.connect() as conn:
        fetch(conn, deliveries, delivery_id, "webhook delivery")
    if attempt(state, delivery_id, trigger="manual") is None:
        raise ApiError(409, "The delivery is being sent right now; try again shortly.")
    with state.engine.connect() as conn:
        return delivery_public(conn, fetch(conn, deliveries, delivery_id, "webhook delivery"))


@router.post("/webhooks/test", response_model=DeliveryPublic)
def send_test(body: TestDelivery, state: State, request: Request) -> DeliveryPublic:
    """Send a signed test event of type ``event`` to one endpoint (retried like any other)."""
    stamp = now(state)
    with state.engine.begin() as conn:
        endpoint = conn.execute(select(endpoints).where(endpoints.c.id == body.endpoint_id)).first()
        if endpoint is None:
            raise not_found("webhook endpoint", body.endpoint_id, param="endpoint_id")
        payload: dict[str, Any] = {
            "id": new_id("evt"),
            "type": body.event,
            "created_at": stamp,
            "data": sample_data(body.event, state.base_url(request)),
        }
        delivery_id = create_delivery(
            conn,
            state.clock.now(),
            event_id=payload["id"],
            event_type=body.event,
            endpoint_id=endpoint.id,
            url=endpoint.url,
            body=encode_body(payload),
        )
    attempt(state, delivery_id, trigger="automatic")
    with state.engine.connect() as conn:
        return delivery_public(conn, fetch(conn, deliveries, delivery_id, "webhook delivery"))


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


@router.get("/webhooks/notifications", response_model=ListOf[NotificationPublic])
def list_notifications(
    state: State, limit: Limit = 100, cursor: Cursor = None
) -> ListOf[NotificationPublic]:
    """Dead-letter e-mails to the admins, with whether each was sent or only logged."""
    with state.engine.connect() as conn:
        rows, next_cursor = page(conn, notifications, [], limit=limit, cursor=cursor)
    data = [notification_public(r) for r in rows]
    return ListOf[NotificationPublic](data=data, next_cursor=next_cursor)
