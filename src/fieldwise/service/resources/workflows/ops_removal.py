"""Deleting workflow runs with their node runs and artifacts."""

from __future__ import annotations

from sqlalchemy import Connection, delete, select

from fieldwise.service.resources.runs.ops_removal import delete_processor_runs
from fieldwise.service.resources.runs.tables import processor_runs
from fieldwise.service.resources.workflows.tables import workflow_runs
from fieldwise.service.state import ServiceState


def delete_workflow_runs(state: ServiceState, conn: Connection, run_ids: list[str]) -> list[str]:
    """Delete workflow runs with their node runs (canceling what still runs)."""
    children = [
        r.id
        for r in conn.execute(
            select(processor_runs.c.id).where(processor_runs.c.workflow_run_id.in_(run_ids))
        )
    ]
    # Delete the parents first, so canceling a node does not advance a doomed workflow run.
    conn.execute(delete(workflow_runs).where(workflow_runs.c.id.in_(run_ids)))
    return delete_processor_runs(state, conn, children) if children else []
