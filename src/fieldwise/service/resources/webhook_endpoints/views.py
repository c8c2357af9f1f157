"""Rows to wire models, and the sample data of test deliveries."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, select

from fieldwise.service.events.webhooks.tables import attempts
from fieldwise.service.resources.webhook_endpoints.schemas import (
    AttemptPublic,
    DeliveryPublic,
    EndpointPublic,
    EndpointWithSecret,
    NotificationPublic,
)


def common_fields(row: Any) -> dict[str, Any]:
    return {"id": row.id, "created_at": row.created_at, "updated_at": row.updated_at}


def endpoint_public(row: Any) -> EndpointPublic:
    return EndpointPublic(
        **common_fields(row),
        url=row.url,
        description=row.description,
        events=list(row.events),
        enabled=bool(row.enabled),
        previous_secret_expires_at=row.previous_secret_expires_at,
    )


def endpoint_with_secret(row: Any) -> EndpointWithSecret:
    return EndpointWithSecret(**endpoint_public(row).model_dump(), secret=row.secret)


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


def sample_data(event_type: str, base_url: str) -> dict[str, Any]:
    """Plausible data of ``event_type`` for a test delivery, marked ``"test": true``."""
    run = {"run_id": "run_test", "status": "succeeded", "test": True}
    if event_type.startswith("processor.run."):
        failed = event_type.endswith("failed")
        return {
            "processor_id": "test-processor",
            **run,
            "status": "failed" if failed else "succeeded",
            **({} if failed else {"output_uri": f"{base_url}/files/file_test"}),
        }
    if event_type.startswith("workflow.run."):
        failed = event_type.endswith("failed")
        return {
            "workflow_id": "test-workflow",
            **run,
            "status": "failed" if failed else "succeeded",
        }
    if event_type.startswith("parse.run."):
        failed = event_type.endswith("failed")
        return {"file_id": "file_test", **run, "status": "failed" if failed else "succeeded"}
    return {"evaluation_set_id": "evs_test", **run}
