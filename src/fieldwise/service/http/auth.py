"""API keys: stored as SHA-256 hashes, checked in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

#: Methods a ``read`` key may use.
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: Paths only an ``admin`` key may reach (key management).
ADMIN_PREFIXES = ("/api-keys",)


@dataclass(frozen=True)
class Principal:
    """Who made a request: the stored key's id (None for an operator key) and its scope."""

    key_id: str | None
    scope: str


def refusal(scope: str, method: str, path: str) -> str | None:
    """Why a key of ``scope`` may not make this request (a 403 message), or None if it may.

    ``admin``: everything. ``write``: everything but key management. ``read``: GET only.
    """
    if scope == "admin":
        return None
    if any(path == p or path.startswith(p + "/") for p in ADMIN_PREFIXES):
        return "This API key's scope does not allow key management (admin scope needed)."
    if scope == "write":
        return None
    if method.upper() in READ_METHODS:
        return None
    return "This API key has the read scope: only GET requests are allowed."


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def generate_key() -> str:
    return "fw_" + secrets.token_urlsafe(32)


class KeyRing:
    """The set of accepted key hashes.

    ``check`` compares against every hash without an early exit, so timing does not reveal
    which key or how much of one matched.
    """

    def __init__(self, hashes: Iterable[str]) -> None:
        self._hashes = tuple(hashes)

    def __len__(self) -> int:
        return len(self._hashes)

    def check(self, presented: str | None) -> bool:
        if not presented:
            return False
        digest = hash_key(presented)
        matched = False
        for stored in self._hashes:
            matched |= hmac.compare_digest(digest, stored)
        return matched

    def holds(self, fingerprint: str, salt: str) -> bool:
        """Whether one of these keys has ``fingerprint`` (see :func:`key_fingerprint`) under
        ``salt``; like :meth:`check`, every key is compared."""
        matched = False
        for stored in self._hashes:
            matched |= hmac.compare_digest(_fingerprint_of_hash(stored, salt), fingerprint)
        return matched


def key_fingerprint(key: str, salt: str) -> str:
    """HMAC-SHA256 of ``key``'s hash under ``salt``: names a key without storing it or its hash.

    A console session keeps the fingerprint of the operator key it signed in with, salted by the
    session's cookie token, which the database holds only as a hash: the database alone cannot
    test guesses of an operator key (which, unlike a generated key, may be a chosen string).
    """
    return _fingerprint_of_hash(hash_key(key), salt)


def _fingerprint_of_hash(digest: str, salt: str) -> str:
    return hmac.new(salt.encode("utf-8"), digest.encode("ascii"), hashlib.sha256).hexdigest()
