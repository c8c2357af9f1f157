"""Processor runs: creation and every state move, each one conditional and transactional.

``queued`` → ``in_progress`` → ``succeeded`` | ``failed`` | ``canceled`` (and ``queued`` →
``canceled``). A move is an ``UPDATE … WHERE status IN (…)``: whoever changes the row first
wins, so a cancel racing a worker's finish yields exactly one terminal state. The terminal
move records its event in the same transaction. A run that is a workflow's node queues a
``workflow_step`` job for its workflow run when it starts and when it ends (in the same
transaction), so the workflow advances durably without this module knowing workflows.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, Row, select

from fieldwise.service.clock import Clock
from fieldwise.service.events.outbox import record_event
from fieldwise.service.http.errors import ApiError
from fieldwise.service.ids import parse_iso
from fieldwise.service.jobs import Job, enqueue, release
from fieldwise.service.jobs.durable import DurableRuns
from fieldwise.service.resources.processors.tables import processors, versions
from fieldwise.service.resources.runs.tables import processor_runs

JOB_KIND = "processor_run"
RUNS = DurableRuns(JOB_KIND, processor_runs, "run")
#: The job a node run queues for its workflow run (the workflows resource handles it).
WORKFLOW_STEP = "workflow_step"


def output_uri(row: Any) -> str | None:
    if row.output_file_id is None or row.output_expired_at is not None:
        return None
    return f"{row.base_url}/files/{row.output_file_id}"


def duration_ms(row: Any) -> int | None:
    if row.started_at is None or row.finished_at is None:
        return None
    delta = parse_iso(row.finished_at) - parse_iso(row.started_at)
    return round(delta.total_seconds() * 1000)


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


def get_run(conn: Connection, run_id: str) -> Row[Any] | None:
    return RUNS.get(conn, run_id)


def status_of(engine: Engine, run_id: str) -> str | None:
    return RUNS.status_of(engine, run_id)


def start_run(engine: Engine, clock: Clock, job: Job) -> Row[Any] | None:
    """``queued`` → ``in_progress`` for the claimed job; None when the run is gone or no longer
    queued. A workflow's node run gives its workflow run a step in the same transaction."""
    with engine.begin() as conn:
        row = RUNS.mark_started(conn, clock, job.target_id, attempt=job.attempts)
        if row is None:
            release(conn, clock, job)
        elif row.workflow_run_id:
            enqueue(conn, clock, WORKFLOW_STEP, row.workflow_run_id)
        return row


def requeue_run(conn: Connection, clock: Clock, run_id: str) -> bool:
    """An interrupted ``in_progress`` run goes back to ``queued`` (recovery)."""
    return RUNS.requeue(conn, clock, run_id)


def finish_run(
    conn: Connection,
    clock: Clock,
    run_id: str,
    status: str,
    *,
    job: Job | None = None,
    from_states: tuple[str, ...] = ("in_progress",),
    output: dict[str, Any] | None = None,
    output_file_id: str | None = None,
    reason: str | None = None,
    message: str | None = None,
) -> bool:
    """Move a run to a terminal ``status`` if it is in ``from_states`` (and, with ``job``, while
    the worker still holds the job's lease); False if it was not.

    In the same transaction: the run's job is finished, its event recorded, and its workflow
    run (if any) given a step to take.
    """
    values = {
        "output": output,
        "output_file_id": output_file_id,
        "failure_reason": reason,
        "failure_message": message,
    }
    row = RUNS.finish(conn, clock, run_id, status, job=job, from_states=from_states, values=values)
    if row is None:
        return False
    if row.processor_id is not None and status in ("succeeded", "failed"):
        data: dict[str, Any] = {
            "processor_id": row.processor_id,
            "run_id": row.id,
            "status": status,
            "output_uri": output_uri(row),
            "version_id": row.version_id,
        }
        if status == "failed":
            data.update(failure_reason=reason, failure_message=message)
        if row.workflow_run_id:
            data["workflow_run_id"] = row.workflow_run_id
        kind = "processor.run.completed" if status == "succeeded" else "processor.run.failed"
        record_event(conn, clock, kind, data)
    if row.workflow_run_id:
        enqueue(conn, clock, WORKFLOW_STEP, row.workflow_run_id)
    return True
