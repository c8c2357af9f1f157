"""Wire models of processors and versions (Create/Update vs Public)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from fieldwise.service.http.schemas import RequestModel, Resource


class ProcessorCreate(RequestModel):
    name: str = Field(min_length=1, max_length=200)
    type: Literal["extraction"] = "extraction"
    description: str = Field(default="", max_length=10_000)


class ProcessorUpdate(RequestModel):
    description: str | None = Field(default=None, max_length=10_000)
    confidence_threshold: float | None = Field(default=None, ge=0.0, le=1.0, allow_inf_nan=False)


class ProcessorPublic(Resource):
    object: Literal["processor"] = "processor"
    name: str
    type: str
    description: str
    confidence_threshold: float | None
    default_version_id: str | None


class VersionCreate(RequestModel):
    config: dict[str, Any]
    description: str = Field(default="", max_length=10_000)


class VerdictCreate(RequestModel):
    """A gate's verdict on a version, recorded by whoever gated it (``fieldwise gate``, CI)."""

    outcome: Literal["pass", "fail", "inconclusive"]
    evaluation_run_id: str | None = Field(default=None, max_length=200)
    runset_id: str | None = Field(default=None, max_length=200)
    policy: str | None = Field(default=None, max_length=2_000)
    reasons: list[Annotated[str, Field(max_length=10_000)]] = Field(
        default_factory=list, max_length=200
    )


class VersionVerdict(VerdictCreate):
    recorded_at: str
    recorded_by: str = Field(description="The key that recorded it: its id, or 'operator'.")


class PublishOverride(RequestModel):
    """A version published although its last verdict was not a pass."""

    by: str = Field(description="Who: 'console session <id> (key <id>)' or 'key <id>'.")
    at: str
    verdict: VersionVerdict


class VersionPublic(Resource):
    object: Literal["processor_version"] = "processor_version"
    processor_id: str
    number: int
    status: Literal["drafted", "published"]
    description: str
    config: dict[str, Any]
    published_at: str | None
    verdict: VersionVerdict | None = None
    publish_override: PublishOverride | None = None
