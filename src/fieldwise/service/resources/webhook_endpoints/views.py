"""Rows to wire models, and the sample data of test deliveries."""

from __future__ import annotations

from typing import Any

from fieldwise.service.http.dependencies import common_fields
from fieldwise.service.resources.webhook_endpoints.schemas import (
    EndpointPublic,
    EndpointWithSecret,
)


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
