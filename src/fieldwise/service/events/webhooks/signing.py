"""Signing secrets: creation, rotation with a grace period, and the workspace secret.

Endpoints have their own secret, shown once at creation and at each rotation. Notifications
addressed to one URL (``webhook_url`` of ``/parse/file/async``) are signed with the workspace
secret, which a user obtains (and rotates) with ``POST /webhooks/workspace-secret/rotate``.
"""

from __future__ import annotations

import secrets as _random
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, insert, select, update

from fieldwise.service.events.webhooks.tables import workspace_secret
from fieldwise.service.ids import isoformat, parse_iso

SECRET_PREFIX = "whsec_"
DEFAULT_GRACE = timedelta(hours=24)
_WORKSPACE_ID = "workspace"


def new_secret() -> str:
    """A fresh signing secret: ``whsec_`` and 32 random bytes, URL-safe."""
    return SECRET_PREFIX + _random.token_urlsafe(32)


def active_secrets(row: Any, now: datetime) -> list[str]:
    """The secrets that sign now: the current one, then the previous one while in grace."""
    keys = [row.secret]
    expires = row.previous_secret_expires_at
    if row.previous_secret and expires and parse_iso(expires) > now:
        keys.append(row.previous_secret)
    return keys


def rotation_values(row: Any, now: datetime, grace: timedelta) -> dict[str, Any]:
    """Column values that rotate ``row``'s secret, keeping the old one for ``grace``."""
    return {
        "secret": new_secret(),
        "previous_secret": row.secret if grace > timedelta(0) else None,
        "previous_secret_expires_at": isoformat(now + grace) if grace > timedelta(0) else None,
        "updated_at": isoformat(now),
    }


def workspace_row(conn: Connection, now: datetime) -> Any:
    """The workspace secret row, created on first use."""
    row = conn.execute(
        select(workspace_secret).where(workspace_secret.c.id == _WORKSPACE_ID)
    ).first()
    if row is not None:
        return row
    stamp = isoformat(now)
    conn.execute(
        insert(workspace_secret).values(
            id=_WORKSPACE_ID,
            secret=new_secret(),
            previous_secret=None,
            previous_secret_expires_at=None,
            created_at=stamp,
            updated_at=stamp,
        )
    )
    return conn.execute(
        select(workspace_secret).where(workspace_secret.c.id == _WORKSPACE_ID)
    ).one()


def rotate_workspace_secret(conn: Connection, now: datetime, grace: timedelta) -> Any:
    """Rotate the workspace secret (creating it if needed); return the new row."""
    row = workspace_row(conn, now)
    conn.execute(
        update(workspace_secret)
        .where(workspace_secret.c.id == _WORKSPACE_ID)
        .values(**rotation_values(row, now, grace))
    )
    return conn.execute(
        select(workspace_secret).where(workspace_secret.c.id == _WORKSPACE_ID)
    ).one()
