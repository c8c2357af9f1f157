"""Wire models of webhook deliveries, their attempts, and the dead-letter notifications."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from fieldwise.service.http.schemas import Resource


class AttemptPublic(BaseModel):
    started_at: str
    trigger: str
    url: str
    status_code: int | None
    latency_ms: float
    error: str | None
    response_excerpt: str | None


class DeliveryPublic(Resource):
    object: Literal["webhook_delivery"] = "webhook_delivery"
    event_id: str
    event_type: str
    endpoint_id: str | None
    url: str
    state: Literal["pending", "retrying", "delivered", "dead"]
    attempt_count: int
    next_attempt_at: str | None
    delivered_at: str | None
    last_status_code: int | None
    last_error: str | None
    payload: dict[str, Any]
    attempts: list[AttemptPublic]


class NotificationPublic(Resource):
    object: Literal["webhook_notification"] = "webhook_notification"
    delivery_id: str
    recipients: list[str]
    subject: str
    body: str
    status: Literal["pending", "sending", "sent", "logged", "failed"]
    tries: int
    error: str | None
