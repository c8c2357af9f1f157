"""Operations on API keys: create, list, revoke, the first-start key, and authentication.

A presented key is accepted if it is one of the operator's keys (``FIELDWISE_API_KEYS``: admin
keys, compared in constant time, never stored) or the hash of a stored key that is not revoked.
Stored keys are looked up by their SHA-256 hash, so nothing about the key leaks through timing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from sqlalchemy import Engine, insert, select, update

from fieldwise._config import ServiceSettings
from fieldwise.service.clock import Clock
from fieldwise.service.http.auth import KeyRing, Principal, generate_key, hash_key
from fieldwise.service.http.dependencies import fetch
from fieldwise.service.http.errors import ApiError
from fieldwise.service.http.pagination import page
from fieldwise.service.ids import isoformat, new_id
from fieldwise.service.resources.api_keys.schemas import ApiKeyPublic, ApiKeyWithSecret
from fieldwise.service.resources.api_keys.tables import api_keys

#: ``last_used_at`` is written at most this often per key, so reads do not all become writes.
LAST_USED_RESOLUTION = timedelta(seconds=60)
KIND = "API key"


def key_public(row: Any) -> ApiKeyPublic:
    return ApiKeyPublic(
        id=row.id,
        created_at=row.created_at,
        updated_at=row.updated_at or row.created_at,
        name=row.name,
        scope=row.scope,
        prefix=row.prefix,
        last_used_at=row.last_used_at,
        revoked_at=row.revoked_at,
    )


def create_key(engine: Engine, clock: Clock, name: str, scope: str) -> ApiKeyWithSecret:
    """A new key; the answer carries the secret, which is stored only as its hash."""
    secret = generate_key()
    stamp = isoformat(clock.now())
    key_id = new_id("key")
    with engine.begin() as conn:
        conn.execute(
            insert(api_keys).values(
                id=key_id,
                key_hash=hash_key(secret),
                prefix=secret[:7],
                name=name,
                scope=scope,
                created_at=stamp,
                updated_at=stamp,
            )
        )
        row = fetch(conn, api_keys, key_id, KIND)
    return ApiKeyWithSecret(**key_public(row).model_dump(), secret=secret)


def list_keys(
    engine: Engine, *, limit: int, cursor: str | None
) -> tuple[list[ApiKeyPublic], str | None]:
    with engine.connect() as conn:
        rows, next_cursor = page(conn, api_keys, [], limit=limit, cursor=cursor)
    return [key_public(r) for r in rows], next_cursor


def get_key(engine: Engine, key_id: str) -> ApiKeyPublic:
    with engine.connect() as conn:
        return key_public(fetch(conn, api_keys, key_id, KIND))


def revoke_key(engine: Engine, clock: Clock, key_id: str) -> ApiKeyPublic:
    """Revoke a key: it is refused (401) from the next request on. 409 if already revoked."""
    stamp = isoformat(clock.now())
    with engine.begin() as conn:
        row = fetch(conn, api_keys, key_id, KIND)
        if row.revoked_at is not None:
            raise ApiError(409, f"API key {key_id} is already revoked.")
        conn.execute(
            update(api_keys)
            .where(api_keys.c.id == key_id)
            .values(revoked_at=stamp, updated_at=stamp)
        )
        return key_public(fetch(conn, api_keys, key_id, KIND))


class KeyAuthenticator:
    """Turns a presented key into a :class:`Principal` (or None): the middleware's check."""

    def __init__(self, engine: Engine, operator_keys: KeyRing, clock: Clock) -> None:
        self.engine = engine
        self.operator_keys = operator_keys
        self.clock = clock

    def operator(self, presented: str) -> Principal | None:
        """The admin principal when ``presented`` is one of the operator's keys (no database:
        the middleware asks this first, on the event loop)."""
        if self.operator_keys.check(presented):
            return Principal(key_id=None, scope="admin")
        return None

    def __call__(self, presented: str | None) -> Principal | None:
        if not presented:
            return None
        principal = self.operator(presented)
        if principal is not None:
            return principal
        digest = hash_key(presented)
        with self.engine.connect() as conn:
            row = conn.execute(
                select(api_keys).where(
                    api_keys.c.key_hash == digest, api_keys.c.revoked_at.is_(None)
                )
            ).first()
        if row is None:
            return None
        self._touch(row)
        return Principal(key_id=row.id, scope=row.scope)

    def _touch(self, row: Any) -> None:
        now = self.clock.now()
        if row.last_used_at and row.last_used_at > isoformat(now - LAST_USED_RESOLUTION):
            return
        with self.engine.begin() as conn:
            conn.execute(
                update(api_keys).where(api_keys.c.id == row.id).values(last_used_at=isoformat(now))
            )


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def bootstrap_keys(
    engine: Engine,
    settings: ServiceSettings,
    clock: Clock,
    announce: Callable[[str], None] = _stderr,
) -> KeyRing:
    """The operator's keys (``FIELDWISE_API_KEYS``), as a ring compared in constant time.

    Without any, and with no key stored yet, an admin key is created and announced exactly once;
    only its hash is stored.
    """
    if settings.api_keys:
        return KeyRing(hash_key(k) for k in settings.api_keys)
    with engine.connect() as conn:
        if conn.execute(select(api_keys.c.seq).limit(1)).first() is not None:
            return KeyRing(())
    key = create_key(engine, clock, "generated at first start", "admin").secret
    announce(
        "fieldwise: created an API key for this service (shown once, stored only as a hash):\n"
        f"  {key}\n"
        "Send it as the x-api-key header (FIELDWISE_API_KEY for the fieldwise CLI)."
    )
    return KeyRing(())
