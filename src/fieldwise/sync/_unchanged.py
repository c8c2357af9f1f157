"""Re-sync in one request when nothing can have changed since the last sync.

When a sync completes, it records one fingerprint: the local side (every document's path,
content hash and ground truth, the set's metadata, the options) and the service side (the
evaluation set's ``ETag``, a digest of everything the set holds, asked over HTTP). A later sync
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
from fieldwise.client import Client, ops
from fieldwise.datasets import Dataset, HashCache, LocalItem, SyncPlan, ground_truth_hash
from fieldwise.sync._source import source_identity
from fieldwise.sync._state import SyncState

__all__ = ["LocalView", "local_view", "record_sync", "unchanged_plan"]

#: The local file that remembers content hashes between syncs (under the state folder).
HASH_CACHE = "hashes.json"


@dataclass(frozen=True)
class LocalView:
    """What a sync mirrors from the dataset, and its digest."""

    items: tuple[LocalItem, ...]
    ground_truth_hash: str
    metadata: dict[str, Any]
    digest: str


def local_view(dataset: Dataset, state_dir: Path) -> LocalView:
    """The dataset as a sync sees it (content hashes from the local hash cache)."""
    with HashCache(state_dir / HASH_CACHE) as cache:
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


def _etag(client: Client, eval_set_id: str) -> str | None:
    try:
        return client.call(ops.evaluation_set_etag(eval_set_id))
    except NotFoundError:
        return None  # deleted behind our back: the normal path finds or makes the set


def unchanged_plan(
    client: Client, state: SyncState, name: str, view: LocalView, *, keep_removed: bool
) -> tuple[str, SyncPlan] | None:
    """``(eval set id, all-unchanged plan)`` when the last sync of set ``name`` left exactly
    ``view`` and the service still holds what it held then; else None."""
    eval_set_id = state.eval_set_id(name)
    recorded = state.last_sync(name)
    if eval_set_id is None or recorded is None:
        return None
    etag = _etag(client, eval_set_id)
    if etag is None or _fingerprint(view, eval_set_id, keep_removed, etag) != recorded:
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
) -> None:
    """After a completed sync: record its fingerprint, or forget it when items were kept that
    a re-sync would report again, or the server sends no ``ETag``."""
    etag = None if kept_removed else _etag(client, eval_set_id)
    fingerprint = None if etag is None else _fingerprint(view, eval_set_id, keep_removed, etag)
    state.record_sync(name, fingerprint)
