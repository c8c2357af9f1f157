"""Which run set to work on: the one to resume, an incomplete one with the same arguments, or
a new one resolved from the service (evaluation set, processor, versions, item snapshot)."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from fieldwise import __version__
from fieldwise._errors import RunnerError
from fieldwise._shards import shard_of
from fieldwise.client import AsyncClient
from fieldwise.compare import spec_digest, truth_digest
from fieldwise.runner import _resolve
from fieldwise.runner._model import ItemSnapshot, LoadedRunSet, Manifest
from fieldwise.runner._runset_store import (
    create_runset,
    find_incomplete,
    load_runset,
    new_runset_id,
)

#: The manifest arguments that must be equal for a restarted command to resume a run set.
MATCH_KEYS = (
    "service",
    "processor_id",
    "eval_set_id",
    "versions",
    "version_ids",
    "items",
    "shard",
)


class Connection(Protocol):
    """What the runner needs of a service connection (``fieldwise._connection`` provides it)."""

    @property
    def base_url(self) -> str: ...

    @property
    def identity(self) -> str: ...

    def async_client(self, **kwargs: Any) -> AsyncClient: ...


def provenance(items: list[ItemSnapshot], metadata: dict[str, Any]) -> dict[str, Any]:
    """What the run set's figures depend on besides the outputs: the hash of the ground-truth
    snapshot (by document name), of the compare spec and of the gate table recorded with the
    evaluation set, and the fieldwise version (version config hashes are in the versions)."""
    return {
        "ground_truth_hash": truth_digest({i.file: i.ground_truth for i in items}),
        "spec_hash": spec_digest(metadata.get("compare_spec")),
        "gate_hash": spec_digest(metadata.get("gate")),
        "fieldwise_version": __version__,
    }


def items_digest(items: list[ItemSnapshot]) -> str:
    canon = [[i.item_id, i.file_id, i.file_sha256, i.ground_truth] for i in items]
    return hashlib.sha256(json.dumps(canon, sort_keys=True).encode()).hexdigest()


async def prepare_runset(
    aclient: AsyncClient,
    connection: Connection,
    *,
    eval_set: str,
    processor_id: str,
    versions: list[str],
    resume: str | None,
    results_dir: Path,
    arguments: dict[str, Any],
    shard: tuple[int, int] | None = None,
    split: str | None = None,
    force: bool = False,
) -> LoadedRunSet:
    """The run set to work on: the one named by ``resume``, an incomplete one with the same
    arguments, or a new one. ``split`` keeps only the items of that split. ``shard`` ``(i, N)``
    then keeps only the items whose content hash falls in shard i of N (see
    :func:`fieldwise._shards.shard_of`); the shard is part of what an incomplete run set must
    match, so each shard resumes on its own. A trained version is not run on items it was
    trained on unless ``force`` (then the manifest records the overlap under
    ``arguments.training_overlap``, for the report to show)."""
    if resume is not None:
        loaded = load_runset(resume, results_dir)
        if loaded.manifest.service_identity != connection.identity:
            raise RunnerError(
                f"run set {resume} was run against {loaded.manifest.service_identity}, not "
                f"{connection.identity}; connect to that service to resume it"
            )
        return loaded
    es = await _resolve.resolve_eval_set(aclient, eval_set)
    processor = await _resolve.resolve_processor(aclient, processor_id)
    refs = await _resolve.resolve_versions(aclient, processor, versions)
    items = await _resolve.snapshot_items(aclient, es.id)
    if not items:
        raise RunnerError(f"evaluation set {es.name!r} ({es.id}) has no items")
    items = _resolve.in_split(items, split, es.name)
    # the whole set's (or split's) items in id order, so merged shards can prove they add up
    whole = {
        "set_items": items_digest(sorted(items, key=lambda i: i.item_id)),
        "set_item_count": len(items),
    }
    if shard is not None:
        index, count = shard
        items = [i for i in items if shard_of(i.file_sha256 or i.item_id, count) == index - 1]
    models, overlap = await _resolve.training_record(aclient, processor, refs, items)
    if overlap and not force:
        raise RunnerError(_overlap_message(overlap, len(items), split))
    if models:
        arguments = {**arguments, "trained_models": models}
    if overlap:
        arguments = {**arguments, "training_overlap": overlap}
    if split is not None:
        arguments = {**arguments, "split": split}
    match = {
        "service": connection.identity,
        "processor_id": processor.id,
        "eval_set_id": es.id,
        "versions": [r.requested for r in refs],
        "version_ids": [r.version_id for r in refs],
        "items": items_digest(items),
        "shard": None if shard is None else f"{shard[0]}/{shard[1]}",
    }
    found = find_incomplete(results_dir, match, keys=MATCH_KEYS)
    if found is not None:
        return found
    created = datetime.now(UTC)
    manifest = Manifest(
        runset_id=new_runset_id(created),
        service_identity=connection.identity,
        base_url=connection.base_url,
        processor_id=processor.id,
        eval_set_id=es.id,
        eval_set_name=es.name,
        dataset=es.metadata.get("dataset"),
        ground_truth_hash=es.metadata.get("ground_truth_hash"),
        versions=refs,
        item_count=len(items),
        created_at=created.isoformat(timespec="seconds").replace("+00:00", "Z"),
        # The set's metadata carries the compare spec and gate recorded by sync, so the run
        # set can be scored later without the service.
        arguments={**arguments, **match, **whole, "eval_set_metadata": dict(es.metadata)},
        provenance=provenance(items, dict(es.metadata)),
    )
    directory = create_runset(results_dir, manifest, items)
    return LoadedRunSet(directory, manifest, tuple(items), ())


def _overlap_message(overlap: dict[str, dict[str, Any]], total: int, split: str | None) -> str:
    version_id, seen = next(iter(overlap.items()))
    where = f"split {split!r}" if split else "all items"
    trained = f" (its training split: {seen['split']!r})" if seen.get("split") else ""
    return (
        f"refusing to evaluate {seen['requested']} ({version_id}) on items it was trained on: "
        f"{seen['items']} of the {total} items of {where} overlap{trained}; evaluate it on "
        "held-back items (--split test), or pass --force to do it anyway (the report says so)"
    )
