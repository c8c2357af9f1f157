"""Signing and verifying webhook bodies: the one implementation the service and receivers share.

A top-level module (not ``webhooks/``) because both sides import it: the service signs what it
delivers, the toolkit's receiver verifies, and neither may import the other's private modules.

The header is ``X-Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]`` where each ``v1`` is
``HMAC-SHA256(secret, "<t>.<raw body>")`` keyed with the secret string exactly as shown
(``whsec_…`` prefix included). Two ``v1`` values appear while a rotated secret is in its grace
period, so a receiver still holding the old secret keeps verifying.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Iterable

from fieldwise._errors import WebhookVerificationError

SIGNATURE_HEADER = "X-Service-Signature"
DEFAULT_TOLERANCE = 300


def compute_signature(secret: str, timestamp: int, body: bytes) -> str:
    """The hex HMAC-SHA256 of ``"<timestamp>.<body>"`` keyed with ``secret``."""
    message = str(timestamp).encode("ascii") + b"." + body
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def sign(body: bytes, secrets: str | Iterable[str], timestamp: int) -> str:
    """The ``X-Service-Signature`` value for ``body``: one ``v1`` per secret, in order."""
    keys = [secrets] if isinstance(secrets, str) else list(secrets)
    if not keys:
        raise ValueError("sign needs at least one secret")
    parts = [f"t={int(timestamp)}", *(f"v1={compute_signature(k, timestamp, body)}" for k in keys)]
    return ",".join(parts)


def _parse(header: str) -> tuple[int, list[str]]:
    timestamp: int | None = None
    signatures: list[str] = []
    for part in header.split(","):
        key, sep, value = part.strip().partition("=")
        if not sep:
            continue
        if key == "t":
            try:
                timestamp = int(value)
            except ValueError:
                raise WebhookVerificationError(
                    f"signature header: timestamp {value!r} is not an integer"
                ) from None
        elif key == "v1" and value:
            signatures.append(value.lower())
    if timestamp is None:
        raise WebhookVerificationError("signature header: no t=<timestamp>")
    if not signatures:
        raise WebhookVerificationError("signature header: no v1=<signature>")
    return timestamp, signatures


def verify(
    body: bytes,
    header: str | None,
    secrets: str | Iterable[str],
    tolerance: float = DEFAULT_TOLERANCE,
    now: float | None = None,
) -> int:
    """Check a delivery; return its timestamp, or raise :class:`WebhookVerificationError`.

    ``body`` must be the raw bytes as received (before any JSON parsing). ``secrets`` is one
    secret or several (e.g. the old and new one while you roll a rotation out). The timestamp
    must lie within ``tolerance`` seconds of ``now`` (default: the current time) in either
    direction, which stops replays of captured deliveries.
    """
    if not header:
        raise WebhookVerificationError(f"missing {SIGNATURE_HEADER} header")
    keys = [secrets] if isinstance(secrets, str) else list(secrets)
    if not keys:
        raise WebhookVerificationError("no secret to verify against")
    timestamp, signatures = _parse(header)
    current = time.time() if now is None else now
    if timestamp < current - tolerance:
        raise WebhookVerificationError(
            f"timestamp {timestamp} is stale ({current - timestamp:.0f} s old, "
            f"tolerance {tolerance:g} s)"
        )
    if timestamp > current + tolerance:
        raise WebhookVerificationError(
            f"timestamp {timestamp} is in the future ({timestamp - current:.0f} s ahead, "
            f"tolerance {tolerance:g} s)"
        )
    for key in keys:
        expected = compute_signature(key, timestamp, body)
        if any(hmac.compare_digest(expected, candidate) for candidate in signatures):
            return timestamp
    raise WebhookVerificationError("no v1 signature matches the body and the given secret(s)")
