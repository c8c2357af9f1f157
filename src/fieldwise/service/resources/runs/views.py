"""Processor-run rows → public models."""

from __future__ import annotations

from typing import Any

from fieldwise.service.jobs.timings import timing_fields
from fieldwise.service.resources.runs.lifecycle import output_uri
from fieldwise.service.resources.runs.schemas import ProcessorRunPublic


def run_public(row: Any) -> ProcessorRunPublic:
    return ProcessorRunPublic(
        **timing_fields(row),
        attempts=row.attempts,
        processor_id=row.processor_id,
        version_id=row.version_id,
        input_path=row.input_path,
        input_file_id=row.input_file_id,
        params=row.params,
        output=row.output,
        output_uri=output_uri(row),
        output_file_id=row.output_file_id,
        output_expired_at=row.output_expired_at,
        workflow_run_id=row.workflow_run_id,
        node_id=row.node_id,
    )
