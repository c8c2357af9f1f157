"""Workflow and workflow-run rows → public models."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from fieldwise.service.http.dependencies import common_fields
from fieldwise.service.jobs.timings import timing_fields
from fieldwise.service.resources.runs.lifecycle import output_uri
from fieldwise.service.resources.runs.tables import processor_runs
from fieldwise.service.resources.workflows.schemas import (
    NodeRunPublic,
    WorkflowPublic,
    WorkflowRunPublic,
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
        **timing_fields(row),
        attempts=sum(child.attempts for child in children),
        workflow_id=row.workflow_id,
        batch_id=row.batch_id,
        input_file_id=row.input_file_id,
        metadata=row.metadata,
        labels=row.labels,
        notes=row.notes,
        nodes=nodes,
    )
