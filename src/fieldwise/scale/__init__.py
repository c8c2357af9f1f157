"""fieldwise.scale: compare at scale — cells as partitioned Parquet, scored shard by shard
in-process or on a Dask cluster, reduced from mergeable statistics.

``write_cells(frame, root, shards=N)`` stores a comparison frame as a cell store;
``score_store(root, specs, baseline=..., candidates=[...], executor="dask")`` scores it and
returns a :class:`~fieldwise.compare.ComparisonResult` (figures without cells) whose
figures are identical whichever executor ran and however the documents were sharded. A store
written chunk by chunk (``write_parts`` then ``write_header``) is compacted with
``compact_store(root)`` (or ``compact_shard(root, k)`` per shard, in parallel), so a shard's
cost does not grow with the number of chunks.
"""

from __future__ import annotations

from fieldwise.scale._cells import (
    CELLS_FORMAT,
    decode_values,
    encode_values,
    read_header,
    shard_of,
    write_cells,
    write_header,
    write_parts,
)
from fieldwise.scale._compact import compact_shard, compact_store
from fieldwise.scale._execute import EXECUTORS, score_shard, score_store

__all__ = [
    "CELLS_FORMAT",
    "EXECUTORS",
    "compact_shard",
    "compact_store",
    "decode_values",
    "encode_values",
    "read_header",
    "score_shard",
    "score_store",
    "shard_of",
    "write_cells",
    "write_header",
    "write_parts",
]
