"""Planning a sync: what must change on the service so an evaluation set mirrors a dataset.

Pure: it compares the local items (with their content hashes) to the remote items and files
and returns a :class:`SyncPlan`; applying it is the toolkit's job (``fieldwise.sync``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["LocalItem", "RemoteItem", "SyncPlan", "plan_sync"]


@dataclass(frozen=True)
class LocalItem:
    file: str
    sha256: str
    ground_truth: Mapping[str, Any]
    split: str | None = None


@dataclass(frozen=True)
class RemoteItem:
    id: str
    file_id: str
    path: str | None
    sha256: str | None
    ground_truth: Mapping[str, Any]
    split: str | None = None


@dataclass(frozen=True)
class SyncPlan:
    """Item actions by dataset path. ``create`` items reuse ``reuse_files[path]`` when the
    service already holds a file with that content, else they need an upload."""

    create: tuple[LocalItem, ...] = ()
    update: tuple[tuple[LocalItem, RemoteItem], ...] = ()
    replace: tuple[tuple[LocalItem, RemoteItem], ...] = ()
    delete: tuple[RemoteItem, ...] = ()
    unchanged: tuple[str, ...] = ()
    kept_removed: tuple[RemoteItem, ...] = ()
    reuse_files: Mapping[str, str] = field(default_factory=dict)

    @property
    def uploads(self) -> int:
        needing = [i.file for i in self.create] + [i.file for i, _ in self.replace]
        return sum(1 for path in needing if path not in self.reuse_files)

    @property
    def writes(self) -> int:
        return len(self.create) + len(self.update) + 2 * len(self.replace) + len(self.delete)

    def counts(self) -> dict[str, int]:
        return {
            "create": len(self.create),
            "update": len(self.update),
            "replace": len(self.replace),
            "delete": len(self.delete),
            "unchanged": len(self.unchanged),
            "upload": self.uploads,
            "kept_removed": len(self.kept_removed),
        }


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _only_adds_or_changes(local: Any, remote: Any) -> bool:
    """True when a merge-PATCH of ``local`` onto ``remote`` yields exactly ``local``: no key
    of ``remote`` is missing from ``local`` at any object level."""
    if isinstance(local, Mapping) and isinstance(remote, Mapping):
        return all(k in local and _only_adds_or_changes(local[k], remote[k]) for k in remote)
    return True


def plan_sync(
    local: Iterable[LocalItem],
    remote: Iterable[RemoteItem],
    remote_files: Mapping[str, str],
    *,
    keep_removed: bool = False,
) -> SyncPlan:
    """Plan the writes that make ``remote`` mirror ``local``.

    ``remote_files`` maps sha256 → file id of files the service holds; an item whose file is
    gone from the service, or whose content hash changed, is replaced. Several remote items for
    one path (left by an interrupted sync) keep the first and delete the rest.
    """
    by_path: dict[str, RemoteItem] = {}
    extra: list[RemoteItem] = []
    for held in remote:
        if held.path is None or held.path in by_path:
            extra.append(held)
        else:
            by_path[held.path] = held
    files_by_id = set(remote_files.values())

    create: list[LocalItem] = []
    update: list[tuple[LocalItem, RemoteItem]] = []
    replace: list[tuple[LocalItem, RemoteItem]] = []
    unchanged: list[str] = []
    reuse: dict[str, str] = {}
    seen: set[str] = set()
    for item in sorted(local, key=lambda i: i.file):
        seen.add(item.file)
        current = by_path.get(item.file)
        file_ok = current is not None and current.file_id in files_by_id
        if current is None or not file_ok or current.sha256 != item.sha256:
            if item.sha256 in remote_files:
                reuse[item.file] = remote_files[item.sha256]
            if current is None:
                create.append(item)
            else:
                replace.append((item, current))
        elif canonical(item.ground_truth) == canonical(current.ground_truth):
            if item.split == current.split:
                unchanged.append(item.file)
            else:
                update.append((item, current))  # only the split moved: a metadata PATCH
        elif _only_adds_or_changes(item.ground_truth, current.ground_truth):
            update.append((item, current))
        else:
            replace.append((item, current))
            reuse[item.file] = current.file_id
    removed = [r for path, r in by_path.items() if path not in seen]
    delete = extra + ([] if keep_removed else removed)
    return SyncPlan(
        create=tuple(create),
        update=tuple(update),
        replace=tuple(replace),
        delete=tuple(sorted(delete, key=lambda r: (r.path or "", r.id))),
        unchanged=tuple(unchanged),
        kept_removed=tuple(removed) if keep_removed else (),
        reuse_files=reuse,
    )
