"""Wire models of parse runs."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from fieldwise.service.jobs.timings import RunTimings


class ParseRunPublic(RunTimings):
    object: Literal["parse_run"] = "parse_run"
    format: Literal["markdown", "text", "json"]
    filename: str
    input_file_id: str | None
    output: Any = Field(description="Markdown or text (a string), or the JSON pages object.")
    output_uri: str | None
    page_count: int | None
    webhook_url: str | None
