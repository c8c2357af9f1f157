"""Wire models of the core resources: separate Create/Update (requests) and Public (responses)."""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

T = TypeVar("T")

MAX_NESTING = 32


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Resource(BaseModel):
    id: str
    object: str
    created_at: str
    updated_at: str


class ListOf(BaseModel, Generic[T]):
    object: Literal["list"] = "list"
    data: list[T]
    next_cursor: str | None


class DeletedPublic(BaseModel):
    id: str
    object: str
    deleted: bool = True


# Files


class FilePublic(Resource):
    object: Literal["file"] = "file"
    filename: str
    content_type: str
    size: int
    sha256: str
    purpose: str
    derived_from: str | None
    metadata: dict[str, Any]


# Processors and versions


class ProcessorCreate(_Request):
    name: str = Field(min_length=1, max_length=200)
    type: Literal["extraction"] = "extraction"
    description: str = Field(default="", max_length=10_000)


class ProcessorUpdate(_Request):
    description: str | None = Field(default=None, max_length=10_000)
    confidence_threshold: float | None = Field(default=None, ge=0.0, le=1.0, allow_inf_nan=False)


class ProcessorPublic(Resource):
    object: Literal["processor"] = "processor"
    name: str
    type: str
    description: str
    confidence_threshold: float | None
    default_version_id: str | None


class VersionCreate(_Request):
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


# Evaluation sets and items


def check_ground_truth(value: Any, path: str = "ground_truth", depth: int = 0) -> None:
    """Leaves are numbers or strings; nested objects and arrays of objects are allowed."""
    if depth > MAX_NESTING:
        raise ValueError(f"{path}: nested deeper than {MAX_NESTING} levels")
    if isinstance(value, bool) or value is None:
        raise ValueError(f"{path}: must be a number, string, object or array of objects")
    if isinstance(value, str | int | float):
        return
    if isinstance(value, dict):
        for key, inner in value.items():
            check_ground_truth(inner, f"{path}.{key}", depth + 1)
        return
    if isinstance(value, list):
        for index, row in enumerate(value):
            if not isinstance(row, dict):
                raise ValueError(f"{path}[{index}]: arrays may only hold objects")
            check_ground_truth(row, f"{path}[{index}]", depth + 1)
        return
    raise ValueError(f"{path}: unsupported value")


class EvaluationSetCreate(_Request):
    name: str = Field(min_length=1, max_length=200)
    description: str = Field(default="", max_length=10_000)
    metadata: dict[str, Any] = Field(default_factory=dict)


class EvaluationSetUpdate(_Request):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=10_000)
    metadata: dict[str, Any] | None = None


class EvaluationSetPublic(Resource):
    object: Literal["evaluation_set"] = "evaluation_set"
    name: str
    description: str
    metadata: dict[str, Any]
    item_count: int


class _GroundTruthRequest(_Request):
    @field_validator("ground_truth", check_fields=False)
    @classmethod
    def _leaves(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is not None:
            for key, inner in value.items():
                check_ground_truth(inner, key)
        return value


class ItemCreate(_GroundTruthRequest):
    file_id: str = Field(min_length=1, max_length=100)
    ground_truth: dict[str, Any]
    metadata: dict[str, Any] = Field(default_factory=dict)


class ItemUpdate(_GroundTruthRequest):
    ground_truth: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None


class ItemPublic(Resource):
    object: Literal["evaluation_item"] = "evaluation_item"
    eval_set_id: str
    file_id: str
    ground_truth: dict[str, Any]
    metadata: dict[str, Any]
