"""``/api-keys``: create (the secret shown once), list, get and revoke keys. Admin keys only
(the scope check in ``http/auth.py`` refuses other scopes with 403)."""

from __future__ import annotations

from fastapi import APIRouter

from fieldwise.service.http.dependencies import Cursor, Limit
from fieldwise.service.http.schemas import ListOf
from fieldwise.service.resources.api_keys import ops
from fieldwise.service.resources.api_keys.schemas import (
    ApiKeyCreate,
    ApiKeyPublic,
    ApiKeyWithSecret,
)
from fieldwise.service.state import State

router = APIRouter(tags=["api-keys"])


@router.post("/api-keys", status_code=201, response_model=ApiKeyWithSecret)
def create_api_key(body: ApiKeyCreate, state: State) -> ApiKeyWithSecret:
    """Create a key; the answer is the only time its ``secret`` is shown."""
    return ops.create_key(state.engine, state.clock, body.name, body.scope)


@router.get("/api-keys", response_model=ListOf[ApiKeyPublic])
def list_api_keys(state: State, limit: Limit = 100, cursor: Cursor = None) -> ListOf[ApiKeyPublic]:
    """Stored keys (revoked ones included); the operator's ``FIELDWISE_API_KEYS`` are not."""
    data, next_cursor = ops.list_keys(state.engine, limit=limit, cursor=cursor)
    return ListOf[ApiKeyPublic](data=data, next_cursor=next_cursor)


@router.get("/api-keys/{key_id}", response_model=ApiKeyPublic)
def get_api_key(key_id: str, state: State) -> ApiKeyPublic:
    return ops.get_key(state.engine, key_id)


@router.delete("/api-keys/{key_id}", response_model=ApiKeyPublic)
def revoke_api_key(key_id: str, state: State) -> ApiKeyPublic:
    """Revoke a key: requests with it are refused (401) at once. The record stays, revoked."""
    return ops.revoke_key(state.engine, state.clock, key_id)
