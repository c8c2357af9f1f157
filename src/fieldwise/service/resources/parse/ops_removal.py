"""Deleting parse runs with their stored input and output."""

from __future__ import annotations

from sqlalchemy import Connection, delete, select

from fieldwise.service.jobs import delete_jobs
from fieldwise.service.resources.files.ops import delete_files
from fieldwise.service.resources.parse.tables import parse_runs
from fieldwise.service.state import ServiceState


def delete_parse_runs(state: ServiceState, conn: Connection, run_ids: list[str]) -> list[str]:
    rows = list(conn.execute(select(parse_runs).where(parse_runs.c.id.in_(run_ids))))
    owned = [f for r in rows for f in (r.input_file_id, r.output_file_id) if f]
    unused = delete_files(state, conn, owned) if owned else []
    delete_jobs(conn, run_ids)
    conn.execute(delete(parse_runs).where(parse_runs.c.id.in_(run_ids)))
    return unused
