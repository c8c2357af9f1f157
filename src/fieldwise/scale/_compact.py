"""Compaction: each shard folder's parts rewritten as one Parquet file with large row groups.

A store written chunk by chunk (:func:`~fieldwise.scale.write_parts`) has a part per chunk in
every shard, so the parts of a shard multiply with the size of the store and so does every
reader's per-file work (open, footer, a row group per part, chunked columns to concatenate):
at 100M cells a shard had 100 parts per version and its read took twice as long as with one.
Compacting after writing makes a shard's cost depend on its documents only. The cells and
their order are unchanged (the parts are concatenated in the order readers read them), so
every figure stays identical. See :mod:`fieldwise.scale._parts` for how a compaction that stops
midway loses and doubles nothing, and how compacting again finishes it.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import posixpath
import uuid
from typing import Any

import fsspec
import pyarrow as pa
import pyarrow.parquet as pq

from fieldwise._errors import CompareError
from fieldwise.scale._cells import read_header, shard_folder
from fieldwise.scale._parts import (
    REPLACES_KEY,
    FolderParts,
    final_name,
    folder_parts,
    pending_name,
    pending_token,
    temp_name,
)

__all__ = ["ROW_GROUP_ROWS", "compact_folder", "compact_shard", "compact_store"]

#: Rows per row group of a compacted file: a whole shard of a version (20,000 documents x 30
#: fields) fits in one, and a reader's memory stays bounded by the shard either way.
ROW_GROUP_ROWS = 1 << 20


def _sync(handle: Any) -> None:
    """On a local disk, make the file's bytes durable before the rename commits them (object
    stores have no such call: their upload completes on close)."""
    with contextlib.suppress(AttributeError, OSError, io.UnsupportedOperation):
        handle.flush()
        os.fsync(handle.fileno())


def _finish(fs: Any, folder: str) -> FolderParts:
    """Complete an interrupted compaction of ``folder``; returns its parts after."""
    parts = folder_parts(fs, folder)
    for path in (*parts.temporary, *parts.stale):
        fs.rm(path)
    for path in parts.pending:
        fs.mv(path, f"{folder}/{final_name(pending_token(path))}")
    return folder_parts(fs, folder) if parts.pending or parts.temporary else parts


def compact_folder(fs: Any, folder: str) -> bool:
    """Rewrite the parts of one shard folder as a single file; returns whether it wrote one
    (``False``: the folder already had at most one part). Idempotent, and safe to stop at
    any point: see :mod:`fieldwise.scale._parts`."""
    parts = _finish(fs, folder)
    if len(parts.live) <= 1:
        return False
    tables = []
    for path in parts.live:
        with fs.open(path, "rb") as handle:
            tables.append(pq.read_table(handle))
    table = pa.concat_tables(tables, promote_options="permissive")
    replaces = {posixpath.basename(p): parts.sizes[p] for p in parts.live}
    metadata = dict(table.schema.metadata or {})
    metadata[REPLACES_KEY] = json.dumps(replaces, sort_keys=True).encode()
    table = table.replace_schema_metadata(metadata)
    token = uuid.uuid4().hex[:16]
    temp = f"{folder}/{temp_name(token)}"
    with fs.open(temp, "wb") as handle:
        pq.write_table(table, handle, row_group_size=ROW_GROUP_ROWS)
        _sync(handle)
    fs.mv(temp, f"{folder}/{pending_name(token)}")  # the commit: one atomic rename
    _finish(fs, folder)
    return True


def compact_shard(root: str, shard: int, versions: list[str] | None = None) -> int:
    """Compact shard ``shard`` of every version (or of ``versions``) of the store at ``root``;
    returns how many folders were rewritten. Shards are independent: compact them in
    parallel, one call per shard."""
    fs, base = fsspec.core.url_to_fs(root)
    if versions is None:
        found = fs.glob(f"{base.rstrip('/')}/version=*")
        versions = [posixpath.basename(p).removeprefix("version=") for p in found]
    try:
        return sum(compact_folder(fs, shard_folder(base, v, shard)) for v in sorted(versions))
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise CompareError(
            f"cannot compact shard {shard} of the cell store at {root}: {exc}"
        ) from exc


def compact_store(root: str) -> int:
    """Compact every shard of the complete store at ``root`` (after writing it in chunks with
    :func:`~fieldwise.scale.write_parts` and :func:`~fieldwise.scale.write_header`); returns
    how many shard folders were rewritten. Do not score the store while it runs."""
    header = read_header(root)
    versions = [str(v) for v in header["versions"]]
    return sum(compact_shard(root, k, versions) for k in range(int(header["shards"])))
