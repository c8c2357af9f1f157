"""Join the run sets of shards 1/N..N/N into one run set (``fieldwise runsets merge``).

Refused, with the reason, unless the parts are one sharded run: the same service, processor,
evaluation set (same items) and versions; shards numbered 1..N of the same N, each exactly
once (no gap, no duplicate); no item in two parts; every part complete (resume a part first).
The merged run set is a new folder written like any other, with ``merged_from`` naming the
parts; its provenance is recomputed over all its items.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from fieldwise._errors import RunnerError
from fieldwise.runner._model import LoadedRunSet
from fieldwise.runner._plan import items_digest, provenance
from fieldwise.runner._runset_store import (
    DEFAULT_RESULTS_DIR,
    load_runset,
    new_runset_id,
    write_whole_runset,
)

__all__ = ["merge_runsets"]

_SAME = ("service", "processor_id", "eval_set_id", "version_ids", "set_items", "set_item_count")


def _check(parts: Sequence[LoadedRunSet]) -> int:
    first = parts[0].manifest.arguments
    shards: dict[int, str] = {}
    count = None
    for part in parts:
        args, rid = part.manifest.arguments, part.manifest.runset_id
        for key in _SAME:
            if args.get(key) != first.get(key):
                raise RunnerError(
                    f"run set {rid} differs from {parts[0].manifest.runset_id} in {key}: "
                    "not shards of one run"
                )
        shard = args.get("shard")
        if not isinstance(shard, str):
            raise RunnerError(f"run set {rid} is not a shard (run it with --shard i/N)")
        index, total = (int(x) for x in shard.split("/"))
        if count is not None and total != count:
            raise RunnerError(f"run set {rid} is shard {shard}, the others are of {count}")
        count = total
        if index in shards:
            raise RunnerError(f"shard {shard} is given twice: {shards[index]} and {rid}")
        shards[index] = rid
        if not part.complete:
            missing = part.manifest.pair_count - len({r.pair for r in part.records})
            raise RunnerError(
                f"run set {rid} (shard {shard}) is missing {missing} pair(s): "
                f"resume it with `fieldwise run --resume {rid}` first"
            )
    assert count is not None
    gaps = sorted(set(range(1, count + 1)) - set(shards))
    if gaps:
        raise RunnerError(f"shard(s) {', '.join(f'{g}/{count}' for g in gaps)} missing")
    return count


def merge_runsets(
    runset_ids: Sequence[str], results_dir: Path = DEFAULT_RESULTS_DIR
) -> LoadedRunSet:
    """The run set of all ``runset_ids`` (the shards of one run), written as a new run set."""
    if not runset_ids:
        raise RunnerError("give the run sets of every shard")
    parts = [load_runset(r, results_dir) for r in runset_ids]
    count = _check(parts)
    items = []
    seen: dict[str, str] = {}
    for part in parts:
        for item in part.items:
            if item.item_id in seen:
                raise RunnerError(
                    f"item {item.item_id} is in both {seen[item.item_id]} and "
                    f"{part.manifest.runset_id}"
                )
            seen[item.item_id] = part.manifest.runset_id
            items.append(item)
    items.sort(key=lambda i: i.item_id)
    args = dict(parts[0].manifest.arguments)
    if len(items) != args.get("set_item_count") or items_digest(items) != args.get("set_items"):
        raise RunnerError("the shards do not add up to the evaluation set's items")
    created = datetime.now(UTC)
    args.pop("shard", None)
    args["items"] = items_digest(items)
    args["merged_from"] = [p.manifest.runset_id for p in parts]
    args["shards"] = count
    metadata = args.get("eval_set_metadata")
    manifest = replace(
        parts[0].manifest,
        runset_id=new_runset_id(created),
        item_count=len(items),
        created_at=created.isoformat(timespec="seconds").replace("+00:00", "Z"),
        arguments=args,
        provenance=provenance(items, dict(metadata) if isinstance(metadata, dict) else {}),
    )
    records = sorted((r for p in parts for r in p.records), key=lambda r: (r.item_id, r.version_id))
    # atomic: an interrupted merge leaves no half run set for a later report to read
    return write_whole_runset(Path(results_dir), manifest, list(items), records)
