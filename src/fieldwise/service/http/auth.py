"""API keys: stored as SHA-256 hashes, checked in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable


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
