"""Delivery and notification rows → wire models."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, select

from fieldwise.service.events.webhooks.tables import attempts
from fieldwise.service.http.dependencies import common_fields
from fieldwise.service.resources.deliveries.schemas import (
    AttemptPublic,
    DeliveryPublic,
    NotificationPublic,
)


def delivery_public(conn: Connection, row: Any) -> DeliveryPublic:
    tries = conn.execute(
        select(attempts).where(attempts.c.delivery_id == row.id).order_by(attempts.c.seq)
    )
    return DeliveryPublic(
        **common_fields(row),
        event_id=row.event_id,
        event_type=row.event_type,
        endpoint_id=row.endpoint_id,
        url=row.url,
        state=row.state,
        attempt_count=row.attempt_count,
        next_attempt_at=row.next_attempt_at,
        delivered_at=row.delivered_at,
        last_status_code=row.last_status_code,
        last_error=row.last_error,
        payload=json.loads(row.body),
        attempts=[
            AttemptPublic(
                started_at=a.started_at,
                trigger=a.trigger,
                url=a.url,
                status_code=a.status_code,
                latency_ms=a.latency_ms,
                error=a.error,
                response_excerpt=a.response_excerpt,
            )
            for a in tries
        ],
    )


def notification_public(row: Any) -> NotificationPublic:
    return NotificationPublic(
        **common_fields(row),
        delivery_id=row.delivery_id,
        recipients=list(row.recipients),
        subject=row.subject,
        body=row.body,
        status=row.status,
        tries=row.tries,
        error=row.error,
    )
