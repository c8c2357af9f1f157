"""Shards of documents: which of N shards a document belongs to, decided by its content hash.

One definition for the two places that split documents — ``fieldwise run --shard i/N`` (which
items one machine runs) and the cell store (which Parquet partition a document's cells go
to) — so every machine agrees without talking to the others.
"""

from __future__ import annotations

import hashlib
import re

from fieldwise._errors import ConfigError

__all__ = ["parse_shard", "shard_of"]

_SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


def shard_of(key: str, shards: int) -> int:
    """The shard (0-based) of a document whose content hash (or id) is ``key``: BLAKE2b, so
    every machine and every Python process agrees."""
    digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") % shards


def parse_shard(text: str) -> tuple[int, int]:
    """``"i/N"`` (1 <= i <= N) as ``(i, N)``; :class:`ConfigError` otherwise."""
    match = _SHARD.match(text)
    if match is None:
        raise ConfigError(f"--shard {text!r}: write it as i/N, e.g. 2/3")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1 or not 1 <= index <= count:
        raise ConfigError(f"--shard {text!r}: i must be between 1 and N")
    return index, count
