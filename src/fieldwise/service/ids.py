"""Identifiers and timestamps of service resources."""

from __future__ import annotations

import re
import secrets
import unicodedata
from datetime import UTC, datetime

_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
_DROPPED = 0xFF  # no character of the alphabet
# A random byte below 252 (7 x 36) is a character, each character 7 of the 252 bytes; bytes
# from 252 up are dropped (a bytes.translate table: byte -> character, or _DROPPED)
_PICK = bytes(
    ord(_ALPHABET[b % len(_ALPHABET)]) if b < len(_ALPHABET) * (256 // len(_ALPHABET)) else _DROPPED
    for b in range(256)
)


def new_id(prefix: str, length: int = 20) -> str:
    """An opaque identifier such as ``file_k3j...``: prefix, underscore, random base-36 text.

    Each character is as uniform and unpredictable as ``secrets.choice`` makes it (a byte of
    the OS's CSPRNG, kept below 252 so that every character has 7 of the kept values), but
    the bytes come from one ``token_bytes`` call per id instead of one Python-level choice
    per character: 24 us became about 1 us, and every run makes several ids.
    """
    picked = b""
    while len(picked) < length:
        # 1.6 % of bytes are dropped: four spare ones make a second draw rare
        drawn = secrets.token_bytes(length + 4).translate(_PICK)
        picked += drawn.replace(bytes((_DROPPED,)), b"")
    return f"{prefix}_" + picked[:length].decode("ascii")


def slugify(name: str) -> str:
    """A slug for slug-like ids (processors, workflows): ASCII, lowercase, dash-separated."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return slug[:64].strip("-")


def isoformat(moment: datetime) -> str:
    """ISO 8601 UTC with a ``Z`` suffix and microseconds, so strings sort like times."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_iso(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
