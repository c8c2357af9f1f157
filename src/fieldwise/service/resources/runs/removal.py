"""Deleting runs and their artifacts, early (DELETE) or by retention (the sweeper)."""

from __future__ import annotations

from sqlalchemy import Connection, delete, select

from fieldwise.service.jobs import delete_jobs
from fieldwise.service.resources.runs.lifecycle import finish_run
from fieldwise.service.resources.runs.tables import parse_runs, processor_runs, workflow_runs
from fieldwise.service.state import ServiceState
from fieldwise.service.store.columns import files


def _owned_files(conn: Connection, run_ids: list[str]) -> list[str]:
    """Output files, and input files a ``file://`` path imported for these runs alone."""
    rows = list(
        conn.execute(
            select(processor_runs.c.output_file_id, processor_runs.c.input_file_id).where(
                processor_runs.c.id.in_(run_ids)
            )
        )
    )
    owned = [r.output_file_id for r in rows if r.output_file_id]
    inputs = {r.input_file_id for r in rows}
    imported = conn.execute(
        select(files.c.id).where(files.c.id.in_(inputs), files.c.purpose == "input")
    )
    return owned + [r.id for r in imported]


def delete_processor_runs(state: ServiceState, conn: Connection, run_ids: list[str]) -> list[str]:
    """Cancel unfinished runs, then delete rows, jobs and owned files; return blobs to unlink
    after commit."""
    from fieldwise.service.resources.files.routes import delete_files

    for run_id in run_ids:
        finish_run(conn, state.clock, run_id, "canceled", from_states=("queued", "in_progress"))
    doomed = _owned_files(conn, run_ids)
    unused = delete_files(state, conn, doomed) if doomed else []
    delete_jobs(conn, run_ids)
    conn.execute(delete(processor_runs).where(processor_runs.c.id.in_(run_ids)))
    return unused


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


def delete_parse_runs(state: ServiceState, conn: Connection, run_ids: list[str]) -> list[str]:
    from fieldwise.service.resources.files.routes import delete_files

    rows = list(conn.execute(select(parse_runs).where(parse_runs.c.id.in_(run_ids))))
    owned = [f for r in rows for f in (r.input_file_id, r.output_file_id) if f]
    unused = delete_files(state, conn, owned) if owned else []
    delete_jobs(conn, run_ids)
    conn.execute(delete(parse_runs).where(parse_runs.c.id.in_(run_ids)))
    return unused


def unlink(state: ServiceState, shas: list[str]) -> None:
    for sha in shas:
        state.blobs.delete(sha)
