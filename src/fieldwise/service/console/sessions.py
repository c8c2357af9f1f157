"""Console sessions: a random token in an HttpOnly cookie, stored only as its hash, with an
expiry, the key it signed in with, and the CSRF token every form of the session carries.

A session ends at sign-out, at its expiry, or as soon as the key it signed in with is revoked:
every request checks it again. A stored key is named by its id; an operator key
(``FIELDWISE_API_KEYS``), which has no row, by its fingerprint salted with the session's token,
and is revoked by removing it from the operator's keys (and restarting the service).
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import Column, Engine, String, Table, delete, insert, select

from fieldwise.service.clock import Clock
from fieldwise.service.http.auth import KeyRing, hash_key, key_fingerprint
from fieldwise.service.ids import isoformat, new_id
from fieldwise.service.resources.api_keys.tables import api_keys
from fieldwise.service.store.columns import metadata, seq_column

#: How long a console session lasts after sign-in.
SESSION_TTL = timedelta(hours=8)

console_sessions = Table(
    "console_sessions",
    metadata,
    seq_column(),
    Column("id", String(40), nullable=False, unique=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    # None: signed in with an operator key (FIELDWISE_API_KEYS), named by operator_fingerprint.
    Column("key_id", String(40), nullable=True),
    Column("csrf", String(64), nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("expires_at", String(32), nullable=False),
    # key_fingerprint(operator key, cookie token): never the key, nor its plain hash.
    Column("operator_fingerprint", String(64), nullable=True),
)


@dataclass(frozen=True)
class Session:
    """A signed-in console session."""

    id: str
    key_id: str | None
    csrf: str
    expires_at: str


def new_token() -> str:
    return secrets.token_urlsafe(32)


def same_token(presented: str | None, expected: str) -> bool:
    """Constant-time comparison of a CSRF token."""
    return bool(presented) and hmac.compare_digest(str(presented), expected)


def start_session(
    engine: Engine, clock: Clock, key_id: str | None, *, operator_key: str | None = None
) -> tuple[str, Session]:
    """A new session of the stored key ``key_id``, or (``key_id`` None) of ``operator_key``;
    returns the cookie token (shown only to the browser) and the session."""
    if (key_id is None) == (operator_key is None):
        raise ValueError("a session is signed in with a stored key or an operator key")
    token = new_token()
    now = clock.now()
    session = Session(
        id=new_id("ses"),
        key_id=key_id,
        csrf=new_token(),
        expires_at=isoformat(now + SESSION_TTL),
    )
    with engine.begin() as conn:
        # Expired sessions are removed as new ones start, so the table stays small.
        conn.execute(
            delete(console_sessions).where(console_sessions.c.expires_at <= isoformat(now))
        )
        conn.execute(
            insert(console_sessions).values(
                id=session.id,
                token_hash=hash_key(token),
                key_id=key_id,
                operator_fingerprint=(
                    None if operator_key is None else key_fingerprint(operator_key, token)
                ),
                csrf=session.csrf,
                created_at=isoformat(now),
                expires_at=session.expires_at,
            )
        )
    return token, session


def load_session(
    engine: Engine, clock: Clock, token: str | None, operator_keys: KeyRing
) -> Session | None:
    """The live session of a cookie token: not expired, its key neither revoked nor demoted,
    or, for an operator key, still one of ``operator_keys`` (the ones the service runs with)."""
    if not token:
        return None
    with engine.connect() as conn:
        row = conn.execute(
            select(console_sessions).where(console_sessions.c.token_hash == hash_key(token))
        ).first()
        if row is None or row.expires_at <= isoformat(clock.now()):
            return None
        if row.key_id is None:
            # A session from before fingerprints were kept has none: it ends, as if revoked.
            fingerprint = row.operator_fingerprint
            if fingerprint is None or not operator_keys.holds(fingerprint, token):
                return None
        else:
            key = conn.execute(
                select(api_keys.c.scope, api_keys.c.revoked_at).where(api_keys.c.id == row.key_id)
            ).first()
            if key is None or key.revoked_at is not None or key.scope != "admin":
                return None
    return Session(id=row.id, key_id=row.key_id, csrf=row.csrf, expires_at=row.expires_at)


def end_session(engine: Engine, session_id: str) -> None:
    with engine.begin() as conn:
        conn.execute(delete(console_sessions).where(console_sessions.c.id == session_id))
