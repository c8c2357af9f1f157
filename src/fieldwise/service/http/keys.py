"""Where the service's accepted API keys come from."""

from __future__ import annotations

import sys
from collections.abc import Callable

from sqlalchemy import Column, Engine, String, Table, insert, select

from fieldwise.config import ServiceSettings
from fieldwise.service.clock import Clock
from fieldwise.service.http.auth import KeyRing, generate_key, hash_key
from fieldwise.service.ids import isoformat
from fieldwise.service.store.columns import metadata, seq_column

api_keys = Table(
    "api_keys",
    metadata,
    seq_column(),
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("prefix", String(16), nullable=False),
    Column("created_at", String(32), nullable=False),
)


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def bootstrap_keys(
    engine: Engine,
    settings: ServiceSettings,
    clock: Clock,
    announce: Callable[[str], None] = _stderr,
) -> KeyRing:
    """Keys from settings if any; else the stored ones; else a new key, announced exactly once.

    Only hashes are stored; a generated key is shown in the announcement and nowhere else.
    """
    if settings.api_keys:
        return KeyRing(hash_key(k) for k in settings.api_keys)
    with engine.begin() as conn:
        stored = [r.key_hash for r in conn.execute(select(api_keys.c.key_hash))]
        if stored:
            return KeyRing(stored)
        key = generate_key()
        conn.execute(
            insert(api_keys).values(
                key_hash=hash_key(key), prefix=key[:7], created_at=isoformat(clock.now())
            )
        )
    announce(
        "fieldwise: created an API key for this service (shown once, stored only as a hash):\n"
        f"  {key}\n"
        "Send it as the x-api-key header (FIELDWISE_API_KEY for the fieldwise CLI)."
    )
    return KeyRing([hash_key(key)])
