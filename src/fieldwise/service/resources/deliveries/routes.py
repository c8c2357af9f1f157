"""Webhook deliveries: listed (all, of one endpoint, of one event), read, sent again; and the
dead-letter notifications that a delivery given up on sends to the admins."""

from __future__ import annotations

from fastapi import APIRouter

from fieldwise.service.events.webhooks.tables import notifications
from fieldwise.service.http.dependencies import Cursor, Limit
from fieldwise.service.http.pagination import page
from fieldwise.service.http.schemas import ListOf
from fieldwise.service.resources.deliveries import ops
from fieldwise.service.resources.deliveries.schemas import DeliveryPublic, NotificationPublic
from fieldwise.service.resources.deliveries.views import notification_public
from fieldwise.service.state import State

router = APIRouter(tags=["webhooks"])


@router.get("/webhooks/endpoints/{endpoint_id}/deliveries", response_model=ListOf[DeliveryPublic])
def list_endpoint_deliveries(
    endpoint_id: str, state: State, limit: Limit = 100, cursor: Cursor = None
) -> ListOf[DeliveryPublic]:
    data, next_cursor = ops.list_deliveries(
        state, limit=limit, cursor=cursor, endpoint_id=endpoint_id
    )
    return ListOf[DeliveryPublic](data=data, next_cursor=next_cursor)


@router.get("/webhooks/deliveries", response_model=ListOf[DeliveryPublic])
def list_deliveries(
    state: State, limit: Limit = 100, cursor: Cursor = None, event_id: str | None = None
) -> ListOf[DeliveryPublic]:
    """Every delivery (also those to a request's ``webhook_url``), optionally of one event."""
    data, next_cursor = ops.list_deliveries(state, limit=limit, cursor=cursor, event_id=event_id)
    return ListOf[DeliveryPublic](data=data, next_cursor=next_cursor)


@router.get("/webhooks/deliveries/{delivery_id}", response_model=DeliveryPublic)
def get_delivery(delivery_id: str, state: State) -> DeliveryPublic:
    return ops.get_delivery(state, delivery_id)


@router.post("/webhooks/deliveries/{delivery_id}/retry", response_model=DeliveryPublic)
def retry_delivery(delivery_id: str, state: State) -> DeliveryPublic:
    """Send the same payload (same event id) now, from any state; the answer shows the attempt."""
    return ops.retry_delivery(state, delivery_id)


@router.get("/webhooks/notifications", response_model=ListOf[NotificationPublic])
def list_notifications(
    state: State, limit: Limit = 100, cursor: Cursor = None
) -> ListOf[NotificationPublic]:
    """Dead-letter e-mails to the admins, with whether each was sent or only logged."""
    with state.engine.connect() as conn:
        rows, next_cursor = page(conn, notifications, [], limit=limit, cursor=cursor)
    data = [notification_public(r) for r in rows]
    return ListOf[NotificationPublic](data=data, next_cursor=next_cursor)
