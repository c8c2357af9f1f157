"""Bases of every wire model: requests that forbid unknown fields, resources, lists, deletions.

Each resource keeps its own models (separate Create/Update and Public) in its ``schemas.py``."""

from __future__ import annotations

from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

T = TypeVar("T")


class RequestModel(BaseModel):
    """A request body: unknown fields are a 422, not silently dropped."""

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
