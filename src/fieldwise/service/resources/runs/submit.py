"""Submitting a processor run: check the processor and version, resolve the input, queue it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from fieldwise.service.http.dependencies import fetch
from fieldwise.service.resources.processors.tables import processors
from fieldwise.service.resources.runs.inputs import resolve_input
from fieldwise.service.resources.runs.lifecycle import create_processor_run, resolve_version
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
    run_id: str | None = None,
) -> str:
    """Validate and queue one run in the caller's transaction (``POST /processors/{id}/runs``
    and ``/extract/path``); return its id (``run_id``, when the caller made it beforehand)."""
    if processor_id is not None:
        fetch(conn, processors, processor_id, "processor")
        version_id = resolve_version(conn, processor_id, version_id)
    input_file = resolve_input(state, conn, input_path, base_url)
    return create_processor_run(
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
