"""Deleting processor runs with their artifacts (DELETE, or with their workflow run)."""

from __future__ import annotations

from sqlalchemy import Connection, delete, select

from fieldwise.service.jobs import delete_jobs
from fieldwise.service.resources.files.ops import delete_files
from fieldwise.service.resources.files.tables import files
from fieldwise.service.resources.runs.lifecycle import RUNS
from fieldwise.service.resources.runs.tables import processor_runs
from fieldwise.service.state import ServiceState


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
    for run_id in run_ids:
        RUNS.cancel(conn, state.clock, run_id)
    doomed = _owned_files(conn, run_ids)
    unused = delete_files(state, conn, doomed) if doomed else []
    delete_jobs(conn, run_ids)
    conn.execute(delete(processor_runs).where(processor_runs.c.id.in_(run_ids)))
    return unused
