"""The status and timings every durable run kind shows: one wire model and one row reader."""

from __future__ import annotations

from typing import Any, Literal

from fieldwise.service.http.dependencies import common_fields
from fieldwise.service.http.schemas import Resource
from fieldwise.service.ids import parse_iso

RunStatus = Literal["queued", "in_progress", "succeeded", "failed", "canceled"]


class RunTimings(Resource):
    """The state and timings every durable run shows."""

    status: RunStatus
    attempts: int
    queued_at: str
    started_at: str | None
    finished_at: str | None
    duration_ms: int | None
    failure_reason: str | None
    failure_message: str | None


def duration_ms(row: Any) -> int | None:
    """How long a finished run worked (None until it started and finished)."""
    if row.started_at is None or row.finished_at is None:
        return None
    delta = parse_iso(row.finished_at) - parse_iso(row.started_at)
    return round(delta.total_seconds() * 1000)


def timing_fields(row: Any) -> dict[str, Any]:
    """The public fields every run kind shares (:class:`RunTimings` but ``attempts``)."""
    return {
        **common_fields(row),
        "status": row.status,
        "queued_at": row.queued_at,
        "started_at": row.started_at,
        "finished_at": row.finished_at,
        "duration_ms": duration_ms(row),
        "failure_reason": row.failure_reason,
        "failure_message": row.failure_message,
    }
