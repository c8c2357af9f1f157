"""Resolve what a run set is about, once, at its start: the evaluation set, its items, the
processor and the versions (aliases included)."""

from __future__ import annotations

import asyncio
import re

from fieldwise._errors import NotFoundError, RunnerError
from fieldwise.client import (
    NAME_PAGE,
    AsyncClient,
    EvaluationSet,
    Item,
    Processor,
    Version,
    one_named,
    ops,
)
from fieldwise.compare import config_digest
from fieldwise.runner._model import ALIASES, ItemSnapshot, VersionRef

#: The version config ``engine`` of a version a training run made.
TRAINED_ENGINE = "trained"


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
    """What the aliases name right now (an alias with no target is absent):

    - ``published``: the processor's default version (the one runs use without a version);
    - ``latest-draft``: the most recently created version still in state ``drafted``, whatever
      made it (``versions create``, ``evaluate``'s set-up or a training run);
    - ``trained:latest``: the most recently created version a training run made, in any state.

    Versions are numbered in creation order, so "most recent" is the highest number."""
    targets: dict[str, str] = {}
    if default_version_id is not None:
        targets["published"] = default_version_id
    drafts = [v for v in versions if v.status == "drafted"]
    if drafts:
        targets["latest-draft"] = max(drafts, key=lambda v: v.number).id
    trained = [v for v in versions if v.config.get("engine") == TRAINED_ENGINE]
    if trained:
        targets["trained:latest"] = max(trained, key=lambda v: v.number).id
    return targets


_NAMES_HELP = "a ver_… id, vN, 'published', 'latest-draft' or 'trained:latest'"
_NUMBERED = re.compile(r"v(\d+)")


def resolve_version(
    processor_id: str, default_version_id: str | None, versions: list[Version], wanted: str
) -> VersionRef:
    """The one reading of a version name, used by ``run``, ``evaluate``, ``compare``'s run
    sets, ``publish`` and the Action: an alias (see :func:`alias_targets`), ``vN`` (the
    processor's version number N) or a ``ver_…`` id. The ref records the number and every
    alias naming the version now. :class:`RunnerError` naming the choices otherwise."""
    by_id = {v.id: v for v in versions}
    targets = alias_targets(default_version_id, versions)
    numbered = _NUMBERED.fullmatch(wanted)
    found: Version | None
    if wanted in ALIASES:
        if wanted not in targets:
            which = {"published": "published", "latest-draft": "drafted"}.get(wanted, "trained")
            raise RunnerError(f"processor {processor_id!r} has no {which} version")
        found = by_id.get(targets[wanted])
    elif numbered is not None:
        found = next((v for v in versions if v.number == int(numbered.group(1))), None)
    else:
        found = by_id.get(wanted)
    if found is None:
        if wanted in targets:  # the default version is not listed: keep its id
            return VersionRef(wanted, targets[wanted], config_digest({}), None, (wanted,))
        raise RunnerError(
            f"processor {processor_id!r} has no version {wanted!r} (give {_NAMES_HELP})"
        )
    aliases = tuple(a for a in ALIASES if targets.get(a) == found.id)
    return VersionRef(wanted, found.id, config_digest(found.config), found.number, aliases)


async def resolve_versions(
    aclient: AsyncClient, processor: Processor, requested: list[str]
) -> tuple[VersionRef, ...]:
    """Each requested version as a :class:`VersionRef` (read by :func:`resolve_version`).
    Duplicates are an error."""
    if not requested:
        raise RunnerError(f"give at least one version ({_NAMES_HELP})")
    known = await _all_versions(aclient, processor.id)
    refs = [
        resolve_version(processor.id, processor.default_version_id, known, name)
        for name in requested
    ]
    seen: dict[str, VersionRef] = {}
    for ref in refs:
        if ref.version_id in seen:
            raise RunnerError(
                f"versions {seen[ref.version_id].requested!r} and {ref.requested!r} are the "
                f"same version ({ref.name}, {ref.version_id}); give each version once"
            )
        seen[ref.version_id] = ref
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
                split=meta.get("split") if isinstance(meta.get("split"), str) else None,
            )
        )
    return sorted(snapshots, key=lambda s: s.item_id)


def in_split(items: list[ItemSnapshot], split: str | None, eval_set: str) -> list[ItemSnapshot]:
    """The items of ``split`` (all for None); an error naming the splits there are when none
    is in it."""
    if split is None:
        return items
    chosen = [i for i in items if i.split == split]
    if chosen:
        return chosen
    sizes: dict[str, int] = {}
    for item in items:
        if item.split is not None:
            sizes[item.split] = sizes.get(item.split, 0) + 1
    if not sizes:
        raise RunnerError(
            f"evaluation set {eval_set!r} has no splits; declare [splits] in the dataset's "
            "dataset.toml and sync it"
        )
    known = ", ".join(f"{name} ({n} items)" for name, n in sorted(sizes.items()))
    raise RunnerError(f"evaluation set {eval_set!r} has no split {split!r} (it has: {known})")


async def training_record(
    aclient: AsyncClient,
    processor: Processor,
    refs: tuple[VersionRef, ...],
    items: list[ItemSnapshot],
) -> tuple[dict[str, dict[str, object]], dict[str, dict[str, object]]]:
    """Of the trained versions among ``refs``: their models (hash, training run, split) by
    version id, and per version how many of ``items`` it was trained on (only versions with
    an overlap are listed)."""
    by_id = {v.id: v for v in await _all_versions(aclient, processor.id)}
    ids = {i.item_id for i in items}
    models: dict[str, dict[str, object]] = {}
    overlap: dict[str, dict[str, object]] = {}
    for ref in refs:
        version = by_id.get(ref.version_id)
        if version is None or version.config.get("engine") != TRAINED_ENGINE:
            continue
        training = version.config.get("training") or {}
        model = version.config.get("model") or {}
        if not isinstance(training, dict) or not isinstance(model, dict):
            continue
        models[ref.version_id] = {
            "model_sha256": model.get("sha256"),
            "training_run_id": training.get("training_run_id"),
            "split": training.get("split"),
        }
        shared = len(ids & set(training.get("item_ids") or ()))
        if shared:
            overlap[ref.version_id] = {
                "requested": ref.requested,
                "items": shared,
                "split": training.get("split"),
            }
    return models, overlap
