"""Wire models of processors and versions (Create/Update vs Public)."""

from __future__ import annotations

from typing import Any, Literal

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


class VersionPublic(Resource):
    object: Literal["processor_version"] = "processor_version"
    processor_id: str
    number: int
    status: Literal["drafted", "published"]
    description: str
    config: dict[str, Any]
    published_at: str | None
