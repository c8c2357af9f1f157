"""Wire models of processor runs."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from fieldwise.service.http.schemas import RequestModel
from fieldwise.service.jobs.timings import RunTimings


class ProcessorRunCreate(RequestModel):
    input_path: str = Field(min_length=1, max_length=4096)
    params: dict[str, Any] = Field(
        default_factory=dict,
        description="Processor parameters; `version_id` picks the version (default: published).",
    )


class ExtractPathCreate(RequestModel):
    input_path: str = Field(min_length=1, max_length=4096)
    processor_id: str | None = Field(default=None, max_length=80)
    version_id: str | None = Field(default=None, max_length=40)


class ProcessorRunPublic(RunTimings):
    object: Literal["processor_run"] = "processor_run"
    processor_id: str | None
    version_id: str | None
    input_path: str
    input_file_id: str
    params: dict[str, Any]
    output: dict[str, Any] | None
    output_uri: str | None
    output_file_id: str | None
    output_expired_at: str | None
    workflow_run_id: str | None
    node_id: str | None
