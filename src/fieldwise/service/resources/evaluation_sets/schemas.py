"""Wire models of evaluation sets and items (Create/Update vs Public)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from fieldwise.service.http.schemas import RequestModel, Resource

MAX_NESTING = 32


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


class EvaluationSetCreate(RequestModel):
    name: str = Field(min_length=1, max_length=200)
    description: str = Field(default="", max_length=10_000)
    metadata: dict[str, Any] = Field(default_factory=dict)


class EvaluationSetUpdate(RequestModel):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=10_000)
    metadata: dict[str, Any] | None = None


class EvaluationSetPublic(Resource):
    object: Literal["evaluation_set"] = "evaluation_set"
    name: str
    description: str
    metadata: dict[str, Any]
    item_count: int
    #: How many writes the set and its items have seen: a client that counts its own writes
    #: can tell whether anyone else wrote in between.
    revision: int = 0


class _GroundTruthRequest(RequestModel):
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
