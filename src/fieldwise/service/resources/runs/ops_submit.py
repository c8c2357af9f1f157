"""Submitting a processor run: check the processor and version, resolve the input, queue it,
and hold the request until the run ends when asked to."""

from __future__ import annotations

from typing import Any

from fastapi.concurrency import run_in_threadpool
from sqlalchemy import Connection, Row

from fieldwise.service.http.dependencies import fetch
from fieldwise.service.http.waiting import hold
from fieldwise.service.resources.processors.tables import processors
from fieldwise.service.resources.runs.lifecycle import (
    RUNS,
    create_processor_run,
    new_run_id,
    resolve_version,
)
from fieldwise.service.resources.runs.ops_inputs import resolve_input
from fieldwise.service.state import ServiceState


def submit_run(
    state: ServiceState,
    conn: Connection,
    *,
    processor_id: str | None,
    version_id: str | None,
    input_path: str,
    params: dict[str, Any],
    base_url: str,
    run_id: str,
) -> None:
    """Validate and queue run ``run_id`` (made by :func:`new_run_id`) in the caller's
    transaction."""
    if processor_id is not None:
        fetch(conn, processors, processor_id, "processor")
        version_id = resolve_version(conn, processor_id, version_id)
    input_file = resolve_input(state, conn, input_path, base_url)
    create_processor_run(
        conn,
        state.clock,
        processor_id=processor_id,
        version_id=version_id,
        input_file_id=input_file.id,
        input_path=input_path,
        params=params,
        base_url=base_url,
        run_id=run_id,
    )


async def submit_and_hold(
    state: ServiceState,
    wait_seconds: float,
    *,
    processor_id: str | None,
    version_id: str | None,
    input_path: str,
    params: dict[str, Any],
    base_url: str,
) -> tuple[Row[Any], Row[Any] | None]:
    """Queue one run (``POST /processors/{id}/runs`` and ``/extract/path``) and hold until it
    is terminal or ``wait_seconds`` passed (0: not at all); return the row as inserted and
    the last one read (None once the run was deleted meanwhile).

    The run is watched before it exists, so its end cannot slip between the insert and the
    wait, and the row the insert's transaction read is the wait's first read (watching after
    the create took one read and one trip to a thread more per held create).
    """
    run_id = new_run_id()

    def insert() -> Row[Any]:
        with state.engine.begin() as conn:
            submit_run(
                state,
                conn,
                processor_id=processor_id,
                version_id=version_id,
                input_path=input_path,
                params=params,
                base_url=base_url,
                run_id=run_id,
            )
            row = RUNS.get(conn, run_id)
        assert row is not None  # inserted by this transaction
        return row

    def read() -> Row[Any] | None:
        with state.engine.connect() as conn:
            return RUNS.get(conn, run_id)

    with state.waiters.watching(run_id) as changed:
        created = await run_in_threadpool(insert)
        return created, await hold(changed, read, wait_seconds, first=created)
