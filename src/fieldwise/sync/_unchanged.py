"""Re-sync in one request when nothing can have changed since the last sync.

When a sync completes, it records one fingerprint: the local side (every document's path,
content hash and ground truth, the set's metadata, the options) and the service side (the
evaluation set's ``ETag``, a digest of everything the set holds, asked over HTTP), but only when
the set's revision shows that this sync's writes were the only ones since it listed the set:
another writer's change in between would otherwise be covered by the recorded tag. A later sync
of the same dataset whose local side and current ``ETag`` match has nothing to do: it answers
"all unchanged" without listing the set's items or the service's files. Anything else — a
document or label edited, an item changed or deleted behind our back, a server that sends no
``ETag`` — takes the normal path, which lists the service and plans against it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fieldwise._errors import NotFoundError
from fieldwise.client import Client, EvaluationSet, ops
from fieldwise.datasets import Dataset, HashCache, LocalItem, SyncPlan, ground_truth_hash
from fieldwise.sync._source import source_identity
from fieldwise.sync._state import SyncState

__all__ = ["LocalView", "hash_cache", "local_view", "record_sync", "unchanged_plan"]

#: The local file that remembers content hashes between syncs (under the state folder).
HASH_CACHE = "hashes.json"


@dataclass(frozen=True)
class LocalView:
    """What a sync mirrors from the dataset, and its digest."""

    items: tuple[LocalItem, ...]
    ground_truth_hash: str
    metadata: dict[str, Any]
    digest: str


def hash_cache(state_dir: Path) -> HashCache:
    """The content hashes syncs keep under ``state_dir``: hand it to
    :func:`~fieldwise.datasets.load_dataset` too, so loading the dataset does not read every
    document again."""
    return HashCache(state_dir / HASH_CACHE)


def local_view(dataset: Dataset, state_dir: Path) -> LocalView:
    """The dataset as a sync sees it (content hashes from the local hash cache)."""
    with hash_cache(state_dir) as cache:
        items = tuple(
            LocalItem(i.file, cache.sha256(i.path), i.ground_truth, i.split) for i in dataset.items
        )
    gt_hash = ground_truth_hash(dataset)
    metadata = {
        "dataset": dataset.name,
        "source": source_identity(dataset.root),  # which folder the set mirrors
        "ground_truth_hash": gt_hash,
        # What comparing needs, so results can be scored later without the dataset folder.
        "compare_spec": {"date_order": dataset.date_order, "fields": dict(dataset.fields)},
        "gate": dict(dataset.gate) if dataset.gate is not None else None,
    }
    digest = hashlib.sha256()
    for item in sorted(items, key=lambda i: i.file):
        digest.update(_canonical([item.file, item.sha256, item.ground_truth, item.split]).encode())
        digest.update(b"\n")
    digest.update(_canonical(metadata).encode())
    return LocalView(items, gt_hash, metadata, digest.hexdigest())


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _fingerprint(view: LocalView, eval_set_id: str, keep_removed: bool, etag: str) -> str:
    raw = _canonical([view.digest, eval_set_id, keep_removed, etag])
    return hashlib.sha256(raw.encode()).hexdigest()


def _tagged(client: Client, eval_set_id: str) -> tuple[EvaluationSet, str] | None:
    """The set and its ``ETag``; None when it was deleted behind our back (the normal path
    finds or makes the set) or the server sends no tag."""
    try:
        found, etag = client.call(ops.tagged_evaluation_set(eval_set_id))
    except NotFoundError:
        return None
    return None if etag is None else (found, etag)


def unchanged_plan(
    client: Client, state: SyncState, name: str, view: LocalView, *, keep_removed: bool
) -> tuple[str, SyncPlan] | None:
    """``(eval set id, all-unchanged plan)`` when the last sync of set ``name`` left exactly
    ``view`` and the service still holds what it held then; else None."""
    eval_set_id = state.eval_set_id(name)
    recorded = state.last_sync(name)
    if eval_set_id is None or recorded is None:
        return None
    tagged = _tagged(client, eval_set_id)
    if tagged is None or _fingerprint(view, eval_set_id, keep_removed, tagged[1]) != recorded:
        return None
    return eval_set_id, SyncPlan(unchanged=tuple(sorted(item.file for item in view.items)))


def record_sync(
    client: Client,
    state: SyncState,
    name: str,
    eval_set_id: str,
    view: LocalView,
    *,
    keep_removed: bool,
    kept_removed: bool,
    revision: int | None,
) -> None:
    """After a completed sync: record its fingerprint with the set's current ``ETag``, or
    forget it.

    ``revision`` is what the set's revision must be if this sync's writes were the only ones
    since it listed the set (its revision then plus the writes it made). Anything else — a
    writer beside it, a server that does not count revisions — means the tag may cover
    content this sync did not make, so nothing is recorded and the next sync plans against
    the service. Nothing either when items were kept that a re-sync would report again, or
    the server sends no ``ETag``."""
    tagged = None if kept_removed or revision is None else _tagged(client, eval_set_id)
    if tagged is None or tagged[0].revision != revision:
        state.record_sync(name, None)
        return
    state.record_sync(name, _fingerprint(view, eval_set_id, keep_removed, tagged[1]))
