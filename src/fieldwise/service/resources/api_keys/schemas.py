"""Wire models of ``/api-keys``: Create (request) and Public / WithSecret (responses)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from fieldwise.service.http.schemas import RequestModel, Resource

Scope = Literal["admin", "write", "read"]


class ApiKeyCreate(RequestModel):
    name: str = Field(min_length=1, max_length=200)
    scope: Scope = "read"


class ApiKeyPublic(Resource):
    object: str = "api_key"
    name: str
    scope: Scope
    #: The first characters of the key, enough to recognise it (never enough to use it).
    prefix: str
    last_used_at: str | None
    revoked_at: str | None


class ApiKeyWithSecret(ApiKeyPublic):
    """The answer to a creation: the only time the key itself is shown."""

    secret: str
