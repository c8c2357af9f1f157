"""Identifiers and timestamps of service resources."""

from __future__ import annotations

import re
import secrets
import unicodedata
from datetime import UTC, datetime

_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"


def new_id(prefix: str, length: int = 20) -> str:
    """An opaque identifier such as ``file_k3j...``: prefix, underscore, random base-36 text."""
    return f"{prefix}_" + "".join(secrets.choice(_ALPHABET) for _ in range(length))


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
