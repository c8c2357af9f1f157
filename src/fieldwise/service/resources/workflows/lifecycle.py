"""Workflow runs: each processor node becomes a processor run, one after another.

A workflow run starts its first node's run at creation. A node run queues a ``workflow_step``
job when it starts and when it ends (in that transaction); the step (:func:`take_step`) marks the
workflow run in progress, queues the next node, or finishes the run and records
``workflow.run.completed`` / ``…failed``. Steps are durable jobs, so a restart loses none.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Row, insert, select, update

from fieldwise.service.clock import Clock
from fieldwise.service.events.outbox import record_event
from fieldwise.service.ids import isoformat, new_id
from fieldwise.service.jobs.durable import DurableRuns
from fieldwise.service.resources.processors.tables import processors
from fieldwise.service.resources.runs.lifecycle import WORKFLOW_STEP, create_processor_run
from fieldwise.service.resources.runs.tables import processor_runs
from fieldwise.service.resources.workflows.tables import workflow_runs, workflows
from fieldwise.service.run_states import ACTIVE

#: Workflow runs ride on their node runs' jobs; their own moves share the durable lifecycle.
WORKFLOW_RUNS = DurableRuns(WORKFLOW_STEP, workflow_runs, "run")


def _row(conn: Connection, workflow_run_id: str) -> Row[Any] | None:
    return conn.execute(select(workflow_runs).where(workflow_runs.c.id == workflow_run_id)).first()


def create_workflow_run(
    conn: Connection,
    clock: Clock,
    workflow: Row[Any],
    *,
    input_file_id: str,
    metadata: dict[str, Any],
    base_url: str,
    batch_id: str | None = None,
) -> str:
    """Insert a workflow run and queue its first node (in the caller's transaction)."""
    run_id = new_id("run")
    stamp = isoformat(clock.now())
    conn.execute(
        insert(workflow_runs).values(
            id=run_id,
            workflow_id=workflow.id,
            batch_id=batch_id,
            status="queued",
            input_file_id=input_file_id,
            metadata=metadata,
            labels=[],
            notes="",
            node_index=0,
            base_url=base_url,
            queued_at=stamp,
            created_at=stamp,
            updated_at=stamp,
        )
    )
    _start_node(conn, clock, run_id, 0)
    return run_id


def _order(conn: Connection, workflow_id: str) -> list[dict[str, Any]]:
    row = conn.execute(select(workflows).where(workflows.c.id == workflow_id)).first()
    if row is None:
        return []
    by_id = {node["id"]: node for node in row.nodes}
    return [by_id[node_id] for node_id in row.order]


def _start_node(
    conn: Connection, clock: Clock, workflow_run_id: str, index: int, *, after: int | None = None
) -> None:
    """Queue node ``index``; with ``after``, only if the run is still at node ``after`` (of two
    steps racing on one finished node, exactly one moves on)."""
    if after is not None:
        moved = conn.execute(
            update(workflow_runs)
            .where(workflow_runs.c.id == workflow_run_id, workflow_runs.c.node_index == after)
            .values(node_index=index, updated_at=isoformat(clock.now()))
        ).rowcount
        if not moved:
            return
    run = _row(conn, workflow_run_id)
    assert run is not None
    order = _order(conn, run.workflow_id)
    if index >= len(order):
        _finish(conn, clock, run, "succeeded")
        return
    node = order[index]
    version_id = conn.execute(
        select(processors.c.default_version_id).where(processors.c.id == node["processor_id"])
    ).scalar()
    if version_id is None:
        _finish(
            conn,
            clock,
            run,
            "failed",
            reason="no_published_version",
            message=f"node {node['id']!r}: processor {node['processor_id']!r} has no published "
            "version",
        )
        return
    create_processor_run(
        conn,
        clock,
        processor_id=node["processor_id"],
        version_id=version_id,
        input_file_id=run.input_file_id,
        input_path=run.input_file_id,
        params={},
        base_url=run.base_url,
        workflow_run_id=workflow_run_id,
        node_id=node["id"],
    )


def take_step(conn: Connection, clock: Clock, workflow_run_id: str) -> None:
    """Bring a workflow run up to date with its current node run (a ``workflow_step`` job).

    Idempotent: the run moves to ``in_progress`` once its node started; when the node ended,
    the next node is queued (only by whoever moves ``node_index`` first) or the run finishes.
    """
    run = _row(conn, workflow_run_id)
    if run is None or run.status not in ("queued", "in_progress"):
        return
    node_run = conn.execute(
        select(processor_runs)
        .where(processor_runs.c.workflow_run_id == workflow_run_id)
        .order_by(processor_runs.c.seq.desc())
        .limit(1)
    ).first()
    if node_run is None or node_run.status == "queued":
        return
    if run.status == "queued":
        WORKFLOW_RUNS.mark_started(conn, clock, workflow_run_id)
    if node_run.status == "in_progress":
        return
    if node_run.status == "succeeded":
        _start_node(conn, clock, run.id, run.node_index + 1, after=run.node_index)
        return
    reason = "node_failed" if node_run.status == "failed" else "node_canceled"
    detail = (
        f": {node_run.failure_reason}: {node_run.failure_message}"
        if node_run.failure_reason
        else ""
    )
    _finish(
        conn,
        clock,
        run,
        "failed",
        reason=reason,
        message=f"node {node_run.node_id!r} (run {node_run.id}) {node_run.status}{detail}",
        node_id=node_run.node_id,
    )


def _finish(
    conn: Connection,
    clock: Clock,
    run: Row[Any],
    status: str,
    *,
    reason: str | None = None,
    message: str | None = None,
    node_id: str | None = None,
) -> None:
    values = {
        "failure_reason": reason,
        "failure_message": message,
        "started_at": run.started_at or isoformat(clock.now()),
    }
    if WORKFLOW_RUNS.finish(conn, clock, run.id, status, from_states=ACTIVE, values=values) is None:
        return
    data: dict[str, Any] = {
        "workflow_id": run.workflow_id,
        "run_id": run.id,
        "status": status,
        "input_file_id": run.input_file_id,
        "batch_id": run.batch_id,
    }
    if status == "failed":
        data.update(failure_reason=reason, failure_message=message, node_id=node_id)
    kind = "workflow.run.completed" if status == "succeeded" else "workflow.run.failed"
    record_event(conn, clock, kind, data)
