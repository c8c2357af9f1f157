"""The part files of one shard folder, and which of them a reader reads.

A shard folder (``<root>/version=<id>/shard=<kkkk>/``) holds Parquet parts: ``part-<n>.parquet``
from :func:`~fieldwise.scale.write_parts` (one per written chunk) and ``part-c<token>.parquet``
from compaction (:func:`~fieldwise.scale.compact_store`), which replaces several parts by one.

Compaction commits with one atomic rename, so it can stop anywhere without losing or doubling a
cell. Its file is first written under a hidden name (``.compact-<token>.tmp``, never read), then
renamed to ``part-c<token>.pending.parquet``: from that instant it holds the cells and its
Parquet metadata names the parts it replaces (with their sizes), which readers skip while they
still exist. Once they are deleted the file is renamed ``part-c<token>.parquet`` (that rename
changes nothing a reader sees). Compacting again finishes an interrupted compaction first.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pyarrow.parquet as pq

__all__ = [
    "PENDING",
    "REPLACES_KEY",
    "FolderParts",
    "final_name",
    "folder_parts",
    "pending_name",
    "pending_token",
    "temp_name",
]

#: Suffix of a committed compacted file whose replaced parts may still exist.
PENDING = ".pending.parquet"
#: Key of the Parquet metadata entry of a compacted file naming the parts it replaces.
REPLACES_KEY = b"fieldwise.replaces"


def temp_name(token: str) -> str:
    """Where a compacted file is written before it counts (readers never open it)."""
    return f".compact-{token}.tmp"


def pending_name(token: str) -> str:
    """A committed compacted file whose replaced parts may still exist."""
    return f"part-c{token}{PENDING}"


def pending_token(path: str) -> str:
    """The token of the pending compacted file at ``path``."""
    return posixpath.basename(path).removeprefix("part-c").removesuffix(PENDING)


def final_name(token: str) -> str:
    """A compacted file whose replaced parts are all gone."""
    return f"part-c{token}.parquet"


@dataclass(frozen=True)
class FolderParts:
    """One shard folder's files, classified (paths, in the order readers concatenate them)."""

    #: parts a reader reads
    live: tuple[str, ...]
    #: parts a committed compaction replaced that still exist (to delete)
    stale: tuple[str, ...]
    #: committed compacted files still named pending (to rename once ``stale`` is gone)
    pending: tuple[str, ...]
    #: hidden files of a compaction interrupted before its commit (to delete)
    temporary: tuple[str, ...]
    #: size in bytes of every file above
    sizes: Mapping[str, int]


def _replaced(fs: Any, path: str) -> dict[str, int]:
    """The parts (name -> size in bytes) the pending compacted file at ``path`` replaces."""
    with fs.open(path, "rb") as handle:
        metadata = pq.read_schema(handle).metadata or {}
    names: dict[str, int] = json.loads(metadata.get(REPLACES_KEY, b"{}"))
    return names


def _entries(fs: Any, folder: str) -> Iterable[tuple[str, int]]:
    try:
        listing = fs.ls(folder, detail=True)
    except FileNotFoundError:
        return []
    return [(str(e["name"]), int(e.get("size") or 0)) for e in listing if e["type"] == "file"]


def folder_parts(fs: Any, folder: str) -> FolderParts:
    """Classify the files of ``folder`` (a missing folder has none).

    A part is stale only if a pending compacted file names it *with its size*: a part written
    later under a reused name is read, not mistaken for one the compaction already holds.
    """
    files = {posixpath.basename(name): (name, size) for name, size in _entries(fs, folder)}
    pending = sorted(path for name, (path, _) in files.items() if name.endswith(PENDING))
    replaced: dict[str, int] = {}
    for path in pending:
        replaced.update(_replaced(fs, path))
    live, stale, temporary = [], [], []
    for name in sorted(files):
        path, size = files[name]
        if name.startswith(".compact-") and name.endswith(".tmp"):
            temporary.append(path)
        elif not (name.startswith("part-") and name.endswith(".parquet")):
            continue
        elif replaced.get(name) == size:
            stale.append(path)
        else:
            live.append(path)
    sizes = dict(files.values())
    return FolderParts(tuple(live), tuple(stale), tuple(pending), tuple(temporary), sizes)
