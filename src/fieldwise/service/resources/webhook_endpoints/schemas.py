"""Wire models of the webhook routes: separate Create/Update (requests) and Public (responses)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from fieldwise.service.events.outbox import EVENT_TYPES
from fieldwise.service.http.schemas import Resource

MAX_GRACE_SECONDS = 7 * 24 * 3600


def _event_types(values: list[str]) -> list[str]:
    unknown = sorted(set(values) - set(EVENT_TYPES))
    if unknown:
        raise ValueError(f"unknown event type {unknown[0]!r}; known: {', '.join(EVENT_TYPES)}")
    return sorted(set(values))


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EndpointCreate(_Request):
    url: str = Field(min_length=1, max_length=2048)
    description: str = Field(default="", max_length=10_000)
    events: list[str] = Field(min_length=1, max_length=len(EVENT_TYPES) * 2)
    enabled: bool = True

    @field_validator("events")
    @classmethod
    def _check_events(cls, values: list[str]) -> list[str]:
        return _event_types(values)


class EndpointUpdate(_Request):
    url: str | None = Field(default=None, min_length=1, max_length=2048)
    description: str | None = Field(default=None, max_length=10_000)
    events: list[str] | None = Field(default=None, min_length=1, max_length=len(EVENT_TYPES) * 2)
    enabled: bool | None = None

    @field_validator("events")
    @classmethod
    def _check_events(cls, values: list[str] | None) -> list[str] | None:
        return None if values is None else _event_types(values)


class RotateSecret(_Request):
    grace_period_seconds: int = Field(default=24 * 3600, ge=0, le=MAX_GRACE_SECONDS)


class TestDelivery(_Request):
    event: str = Field(min_length=1, max_length=64)
    endpoint_id: str = Field(min_length=1, max_length=40)

    @field_validator("event")
    @classmethod
    def _check_event(cls, value: str) -> str:
        return _event_types([value])[0]


class EndpointPublic(Resource):
    object: Literal["webhook_endpoint"] = "webhook_endpoint"
    url: str
    description: str
    events: list[str]
    enabled: bool
    previous_secret_expires_at: str | None


class EndpointWithSecret(EndpointPublic):
    """Only the create and rotate answers carry the secret; store it, it is not shown again."""

    secret: str


class WorkspaceSecretPublic(BaseModel):
    object: Literal["webhook_workspace_secret"] = "webhook_workspace_secret"
    created_at: str
    updated_at: str
    previous_secret_expires_at: str | None


class WorkspaceSecretWithSecret(WorkspaceSecretPublic):
    secret: str
