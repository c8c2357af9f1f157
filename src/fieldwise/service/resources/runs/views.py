"""Rows → public models."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from fieldwise.service.http.dependencies import common_fields
from fieldwise.service.resources.runs.lifecycle import duration_ms, output_uri
from fieldwise.service.resources.runs.schemas import (
    NodeRunPublic,
    ProcessorRunPublic,
    WorkflowPublic,
    WorkflowRunPublic,
)
from fieldwise.service.resources.runs.tables import processor_runs


def _timings(row: Any) -> dict[str, Any]:
    return {
        **common_fields(row),
        "status": row.status,
        "queued_at": row.queued_at,
        "started_at": row.started_at,
        "finished_at": row.finished_at,
        "duration_ms": duration_ms(row),
        "failure_reason": row.failure_reason,
        "failure_message": row.failure_message,
    }


def run_public(row: Any) -> ProcessorRunPublic:
    return ProcessorRunPublic(
        **_timings(row),
        attempts=row.attempts,
        processor_id=row.processor_id,
        version_id=row.version_id,
        input_path=row.input_path,
        input_file_id=row.input_file_id,
        params=row.params,
        output=row.output,
        output_uri=output_uri(row),
        output_file_id=row.output_file_id,
        output_expired_at=row.output_expired_at,
        workflow_run_id=row.workflow_run_id,
        node_id=row.node_id,
    )


def workflow_public(row: Any) -> WorkflowPublic:
    return WorkflowPublic(
        **common_fields(row), name=row.name, nodes=row.nodes, edges=row.edges, order=row.order
    )


def workflow_run_public(conn: Connection, row: Any) -> WorkflowRunPublic:
    children = list(
        conn.execute(
            select(processor_runs)
            .where(processor_runs.c.workflow_run_id == row.id)
            .order_by(processor_runs.c.seq)
        )
    )
    nodes = [
        NodeRunPublic(
            node_id=child.node_id,
            processor_id=child.processor_id,
            run_id=child.id,
            status=child.status,
            output=child.output,
            output_uri=output_uri(child),
            failure_reason=child.failure_reason,
            failure_message=child.failure_message,
        )
        for child in children
    ]
    return WorkflowRunPublic(
        **_timings(row),
        attempts=sum(child.attempts for child in children),
        workflow_id=row.workflow_id,
        batch_id=row.batch_id,
        input_file_id=row.input_file_id,
        metadata=row.metadata,
        labels=row.labels,
        notes=row.notes,
        nodes=nodes,
    )
