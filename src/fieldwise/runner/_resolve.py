"""Resolve what a run set is about, once, at its start: the evaluation set, its items, the
processor and the versions (aliases included)."""

from __future__ import annotations

import asyncio

from fieldwise._errors import NotFoundError, RunnerError
from fieldwise.client import AsyncClient, EvaluationSet, Item, Processor, Version, ops
from fieldwise.client._lookup import NAME_PAGE, one_named
from fieldwise.compare._provenance import config_digest
from fieldwise.runner._model import ItemSnapshot, VersionRef


async def resolve_eval_set(aclient: AsyncClient, name_or_id: str) -> EvaluationSet:
    """An evaluation set by id (``es_…``) or by exact name."""
    if name_or_id.startswith("es_"):
        try:
            return await aclient.call(ops.get_evaluation_set(name_or_id))
        except NotFoundError:
            pass  # a set may be named like an id; try the name before giving up
    page = await aclient.call(ops.list_evaluation_sets(limit=NAME_PAGE, name=name_or_id))
    found = one_named(page.data, name_or_id, "evaluation set")
    if found is None:
        raise RunnerError(f"no evaluation set with id or name {name_or_id!r}")
    return found


async def resolve_processor(aclient: AsyncClient, processor_id: str) -> Processor:
    try:
        return await aclient.call(ops.get_processor(processor_id))
    except NotFoundError as exc:
        raise RunnerError(f"no processor {processor_id!r}") from exc


async def _all_versions(aclient: AsyncClient, processor_id: str) -> list[Version]:
    return [
        v
        async for v in aclient.paginate(
            lambda c: ops.list_versions(processor_id, limit=1000, cursor=c)
        )
    ]


def alias_targets(default_version_id: str | None, versions: list[Version]) -> dict[str, str]:
    """What the aliases name right now: ``published`` the processor's default version,
    ``latest-draft`` its highest-numbered drafted one (an alias with no target is absent).
    The one definition of the aliases: the runner and ``evaluate``'s set-up both use it."""
    targets: dict[str, str] = {}
    if default_version_id is not None:
        targets["published"] = default_version_id
    drafts = [v for v in versions if v.status == "drafted"]
    if drafts:
        targets["latest-draft"] = max(drafts, key=lambda v: v.number).id
    return targets


async def resolve_versions(
    aclient: AsyncClient, processor: Processor, requested: list[str]
) -> tuple[VersionRef, ...]:
    """Each requested version as a :class:`VersionRef`; ``published`` is the processor's
    default version, ``latest-draft`` its newest drafted one. Duplicates are an error."""
    if not requested:
        raise RunnerError("give at least one version (a ver_… id, 'published' or 'latest-draft')")
    known = await _all_versions(aclient, processor.id)
    by_id = {v.id: v for v in known}
    targets = alias_targets(processor.default_version_id, known)
    refs: list[VersionRef] = []
    for name in requested:
        if name in ("published", "latest-draft"):
            if name not in targets:
                which = "published" if name == "published" else "drafted"
                raise RunnerError(f"processor {processor.id!r} has no {which} version")
            version_id = targets[name]
        elif name in by_id:
            version_id = name
        else:
            raise RunnerError(
                f"processor {processor.id!r} has no version {name!r} "
                "(give a ver_… id, 'published' or 'latest-draft')"
            )
        config = by_id[version_id].config if version_id in by_id else {}
        refs.append(VersionRef(name, version_id, config_hash=config_digest(config)))
    seen: dict[str, str] = {}
    for ref in refs:
        if ref.version_id in seen:
            raise RunnerError(
                f"versions {seen[ref.version_id]!r} and {ref.requested!r} are the same "
                f"version ({ref.version_id}); give each version once"
            )
        seen[ref.version_id] = ref.requested
    return tuple(refs)


async def snapshot_items(aclient: AsyncClient, eval_set_id: str) -> list[ItemSnapshot]:
    """Every item of the set with its file path and content hash (from sync's item metadata,
    else from the file resource), sorted by item id."""
    items: list[Item] = [
        i
        async for i in aclient.paginate(lambda c: ops.list_items(eval_set_id, limit=1000, cursor=c))
    ]
    missing = [i for i in items if not (i.metadata.get("sha256") and i.metadata.get("path"))]
    files = await asyncio.gather(*(aclient.call(ops.get_file(i.file_id)) for i in missing))
    by_file = {f.id: f for f in files}
    snapshots = []
    for item in items:
        meta = item.metadata
        file = by_file.get(item.file_id)
        snapshots.append(
            ItemSnapshot(
                item_id=item.id,
                file=str(meta.get("path") or (file.filename if file else item.file_id)),
                file_sha256=str(meta.get("sha256") or (file.sha256 if file else "")),
                file_id=item.file_id,
                ground_truth=dict(item.ground_truth),
            )
        )
    return sorted(snapshots, key=lambda s: s.item_id)
