"""Re-sync without the service when nothing can have changed since the last sync.

The embedded service keeps its database in a local data folder, and only fieldwise writes
there. When a sync completes, the CLI stops the embedded service and records one fingerprint:
the local side (every document's path, content hash and ground truth, the set's metadata,
the options) and the service side (size, modification time and inode of the database and its
write-ahead log, taken once the service has stopped and its files have settled). A later sync
of the same dataset whose fingerprint matches has nothing to do, so it answers "all unchanged"
without starting the service. Anything else — a document or label edited, another command
having written to the service (a run, an item deleted behind our back), a remote service or a
database URL — takes the normal path, which lists the service and plans against it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fieldwise.datasets import Dataset, HashCache, LocalItem, SyncPlan, ground_truth_hash
from fieldwise.sync._source import source_identity
from fieldwise.sync._state import SyncState

__all__ = ["LocalView", "local_view", "record_sync", "service_files", "unchanged_sync"]

_DATABASE = ("fieldwise.db", "fieldwise.db-wal")


@dataclass(frozen=True)
class LocalView:
    """What a sync mirrors from the dataset, and its digest."""

    items: tuple[LocalItem, ...]
    ground_truth_hash: str
    metadata: dict[str, Any]
    digest: str


def local_view(dataset: Dataset, state_dir: Path) -> LocalView:
    """The dataset as a sync sees it (content hashes from the local hash cache)."""
    with HashCache(state_dir / "hashes.json") as cache:
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


def service_files(data_dir: Path) -> str | None:
    """Size, mtime and inode of the embedded service's database files; None without one."""
    parts = []
    for name in _DATABASE:
        try:
            stat = (data_dir / name).stat()
        except FileNotFoundError:
            if name == _DATABASE[0]:
                return None
            parts.append(f"{name}:-")
            continue
        parts.append(f"{name}:{stat.st_size}:{stat.st_mtime_ns}:{stat.st_ino}")
    return ";".join(parts)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _fingerprint(view: LocalView, eval_set_id: str, keep_removed: bool, files: str) -> str:
    raw = _canonical([view.digest, eval_set_id, keep_removed, files])
    return hashlib.sha256(raw.encode()).hexdigest()


def unchanged_sync(
    dataset: Dataset,
    *,
    state_dir: Path,
    service_identity: str,
    data_dir: Path,
    eval_set: str | None = None,
    keep_removed: bool = False,
) -> tuple[str, SyncPlan, str] | None:
    """``(eval set id, all-unchanged plan, ground-truth hash)`` when the last sync of this
    dataset to the embedded service in ``data_dir`` left exactly this; else None."""
    name = eval_set or dataset.name
    state = SyncState(state_dir, service_identity)
    eval_set_id = state.eval_set_id(name)
    recorded = state.last_sync(name)
    files = service_files(data_dir)
    if eval_set_id is None or recorded is None or files is None:
        return None
    view = local_view(dataset, state_dir)
    if _fingerprint(view, eval_set_id, keep_removed, files) != recorded:
        return None
    unchanged = tuple(sorted(item.file for item in view.items))
    plan = SyncPlan(unchanged=unchanged)
    return eval_set_id, plan, view.ground_truth_hash


def record_sync(
    view: LocalView,
    *,
    state_dir: Path,
    service_identity: str,
    eval_set_name: str,
    eval_set_id: str,
    data_dir: Path,
    keep_removed: bool,
    kept_removed: bool,
    settled: bool = True,
) -> None:
    """After a completed sync, with the embedded service stopped: record its fingerprint, or
    forget it when items were kept that a re-sync would report again, or when the service
    had not finished closing its files (``settled`` false)."""
    files = service_files(data_dir)
    state = SyncState(state_dir, service_identity)
    mapped = state.eval_set_id(eval_set_name) == eval_set_id
    if files is None or kept_removed or not settled or not mapped:
        state.record_sync(eval_set_name, None)
        return
    state.record_sync(eval_set_name, _fingerprint(view, eval_set_id, keep_removed, files))
