"""Processor runs: creation and every state move, each one conditional and transactional.

``queued`` → ``in_progress`` → ``succeeded`` | ``failed`` | ``canceled`` (and ``queued`` →
``canceled``), as every durable run (:class:`~fieldwise.service.jobs.durable.DurableRuns`):
whoever changes the row first wins, so a cancel racing a worker's finish yields exactly one
terminal state. What is particular to processor runs rides on the moves, in their
transaction: the terminal move records ``processor.run.completed`` / ``…failed``, and a run
that is a workflow's node queues a ``workflow_step`` job for its workflow run when it starts
and when it ends, so the workflow advances durably without this module knowing workflows.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Row, select

from fieldwise.service.clock import Clock
from fieldwise.service.events.outbox import record_event
from fieldwise.service.http.errors import ApiError
from fieldwise.service.jobs import enqueue
from fieldwise.service.jobs.durable import DurableRuns
from fieldwise.service.resources.processors.tables import processors, versions
from fieldwise.service.resources.runs.tables import processor_runs

#: The job a node run queues for its workflow run (the workflows resource handles it).
WORKFLOW_STEP = "workflow_step"
JOB_KIND = "processor_run"


def output_uri(row: Any) -> str | None:
    if row.output_file_id is None or row.output_expired_at is not None:
        return None
    return f"{row.base_url}/files/{row.output_file_id}"


def _started(conn: Connection, clock: Clock, row: Row[Any]) -> None:
    if row.workflow_run_id:
        enqueue(conn, clock, WORKFLOW_STEP, row.workflow_run_id)


def _ended(conn: Connection, clock: Clock, row: Row[Any]) -> None:
    """The event of a processor's run (a bare ``/extract/path`` run has none), and its workflow
    run's step."""
    if row.processor_id is not None and row.status in ("succeeded", "failed"):
        data: dict[str, Any] = {
            "processor_id": row.processor_id,
            "run_id": row.id,
            "status": row.status,
            "output_uri": output_uri(row),
            "version_id": row.version_id,
        }
        if row.status == "failed":
            data.update(failure_reason=row.failure_reason, failure_message=row.failure_message)
        if row.workflow_run_id:
            data["workflow_run_id"] = row.workflow_run_id
        succeeded = row.status == "succeeded"
        kind = "processor.run.completed" if succeeded else "processor.run.failed"
        record_event(conn, clock, kind, data)
    _started(conn, clock, row)


RUNS = DurableRuns(JOB_KIND, processor_runs, "run", started=_started, ended=_ended)


def resolve_version(conn: Connection, processor_id: str, version_id: str | None) -> str:
    """The version a run uses: ``version_id`` if given (422 if unknown), else the published one
    (409 when there is none)."""
    if version_id is not None:
        found = conn.execute(
            select(versions.c.id).where(
                versions.c.id == version_id, versions.c.processor_id == processor_id
            )
        ).first()
        if found is None:
            raise ApiError(
                422,
                f"params.version_id: no version {version_id!r} of processor {processor_id!r}.",
                param="params.version_id",
            )
        return version_id
    default = conn.execute(
        select(processors.c.default_version_id).where(processors.c.id == processor_id)
    ).scalar_one()
    if default is None:
        raise ApiError(
            409,
            f"Processor {processor_id!r} has no published version; publish one or pass "
            "params.version_id.",
            code="no_published_version",
        )
    return str(default)


def create_processor_run(
    conn: Connection,
    clock: Clock,
    *,
    processor_id: str | None,
    version_id: str | None,
    input_file_id: str,
    input_path: str,
    params: dict[str, Any],
    base_url: str,
    workflow_run_id: str | None = None,
    node_id: str | None = None,
    run_id: str | None = None,
) -> str:
    """Insert a queued run and its job in the caller's transaction; return the run id
    (``run_id``, when given: made beforehand by :func:`new_run_id`)."""
    run_id, _job = RUNS.create(
        conn,
        clock,
        {
            "processor_id": processor_id,
            "version_id": version_id,
            "input_path": input_path,
            "input_file_id": input_file_id,
            "params": params,
            "base_url": base_url,
            "workflow_run_id": workflow_run_id,
            "node_id": node_id,
        },
        run_id=run_id,
    )
    return run_id


def new_run_id() -> str:
    """The id of a processor run not inserted yet (see :func:`create_processor_run`)."""
    return RUNS.next_id()
