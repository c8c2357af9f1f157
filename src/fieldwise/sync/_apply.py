"""Apply a sync plan through the client: uploads, item writes, the ground-truth hash."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fieldwise._errors import DatasetError, NotFoundError
from fieldwise.client import NAME_PAGE, Client, EvaluationSet, Op, one_named, ops
from fieldwise.datasets import Dataset, LocalItem, RemoteItem, SyncPlan, plan_sync
from fieldwise.sync._state import SyncState
from fieldwise.sync._unchanged import LocalView, local_view, record_sync, unchanged_plan

Progress = Callable[[str, int], None]


@dataclass(frozen=True)
class SyncResult:
    eval_set_id: str | None
    eval_set_name: str
    plan: SyncPlan
    ground_truth_hash: str
    dry_run: bool
    #: The dataset as this sync saw it.
    local: LocalView | None = None
    #: True when the service's ``ETag`` showed nothing changed since the last sync, so the
    #: set's items and the service's files were not even listed.
    known_unchanged: bool = False


def _find_or_create_set(
    client: Client,
    state: SyncState,
    name: str,
    description: str,
    create: bool,
    metadata: dict[str, Any],
) -> EvaluationSet | None:
    known = state.eval_set_id(name)
    if known:
        try:
            return client.call(ops.get_evaluation_set(known))
        except NotFoundError:
            pass  # deleted on the server behind our back: find by name or make a new one
    found = one_named(
        client.call(ops.list_evaluation_sets(limit=NAME_PAGE, name=name)).data,
        name,
        "evaluation set",
    )
    if found is not None:
        return found
    if not create:
        return None
    # the source from the start: a sync cut short still says which folder the set mirrors
    return client.call(ops.create_evaluation_set(name, description=description, metadata=metadata))


def _check_source(target: EvaluationSet, name: str, source: str) -> None:
    """Refuse to make a set mirror this folder when another folder made it (a set from before
    sources were recorded has none, and takes this folder's at the end of the sync)."""
    recorded = (target.metadata or {}).get("source")
    if recorded is not None and recorded != source:
        raise DatasetError(
            f"evaluation set {name!r} ({target.id}) mirrors another dataset folder "
            f"({recorded}), not this one ({source}): syncing would replace its items. Give "
            "this dataset another [dataset] name, or make the set mirror this folder with "
            "`fieldwise sync FOLDER --force`"
        )


def _pages(client: Client, path: str) -> list[dict[str, Any]]:
    """Every object of a list endpoint, 1000 a page, as plain JSON: a re-sync reads 10,000
    items and as many files, and validating each into a model cost a third of the listing."""

    def page(response: Any) -> dict[str, Any]:
        body: dict[str, Any] = response.json()
        return body

    found: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        params: dict[str, Any] = {"limit": 1000, **({"cursor": cursor} if cursor else {})}
        body = client.call(Op("GET", path, page, params=params))
        found.extend(body["data"])
        cursor = body.get("next_cursor")
        if not cursor:
            return found


def _remote_items(client: Client, eval_set_id: str) -> list[RemoteItem]:
    items = _pages(client, f"/evaluation-sets/{quote(eval_set_id, safe='')}/items")
    return [
        RemoteItem(
            id=i["id"],
            file_id=i["file_id"],
            path=(i.get("metadata") or {}).get("path"),
            sha256=(i.get("metadata") or {}).get("sha256"),
            ground_truth=i["ground_truth"],
            split=(i.get("metadata") or {}).get("split"),
        )
        for i in items
    ]


def _remote_files(client: Client) -> dict[str, str]:
    return {f["sha256"]: f["id"] for f in _pages(client, "/files") if f["purpose"] == "upload"}


def sync_dataset(
    client: Client,
    dataset: Dataset,
    *,
    state_dir: Path,
    service_identity: str,
    eval_set: str | None = None,
    dry_run: bool = False,
    keep_removed: bool = False,
    concurrency: int = 4,
    progress: Progress | None = None,
    force: bool = False,
) -> SyncResult:
    """Make the evaluation set ``eval_set`` (default: the dataset's name) mirror ``dataset``.

    Idempotent and incremental: content hashes decide uploads (a file the service already
    holds is reused), changed ground truth is PATCHed, items whose file left the dataset are
    deleted (or reported with ``keep_removed``). A second run on an unchanged dataset writes
    nothing, and when the set's ``ETag`` shows the service holds what the last sync left, it
    lists nothing either (see :mod:`fieldwise.sync._unchanged`). ``progress(stage, n)`` is
    called as work completes.

    The set records the folder it mirrors (``metadata["source"]``, see
    :func:`~fieldwise.sync._source.source_identity`); a set another folder made is not
    replaced unless ``force`` (which records this folder instead).

    Raises:
        DatasetError: the evaluation set mirrors another folder and ``force`` is false.
    """
    name = eval_set or dataset.name
    state = SyncState(state_dir, service_identity)
    view = local_view(dataset, state_dir)
    known = unchanged_plan(client, state, name, view, keep_removed=keep_removed)
    if known is not None:
        eval_set_id, unchanged = known
        return SyncResult(
            eval_set_id,
            name,
            unchanged,
            view.ground_truth_hash,
            dry_run=dry_run,
            local=view,
            known_unchanged=True,
        )
    target = _find_or_create_set(
        client, state, name, dataset.description, not dry_run, {"source": view.metadata["source"]}
    )
    if target is not None and not force:
        _check_source(target, name, view.metadata["source"])
    remote = _remote_items(client, target.id) if target else []
    plan = plan_sync(view.items, remote, _remote_files(client), keep_removed=keep_removed)
    if dry_run or target is None:
        found = target.id if target else None
        return SyncResult(found, name, plan, view.ground_truth_hash, dry_run=True, local=view)
    state.remember(name, target.id)
    _apply(client, dataset, target.id, plan, concurrency, progress or (lambda _s, _n: None))
    writes = plan.writes
    wanted = view.metadata
    if any(target.metadata.get(k) != v for k, v in wanted.items()):
        client.call(ops.update_evaluation_set(target.id, metadata=wanted))
        writes += 1
    record_sync(
        client,
        state,
        name,
        target.id,
        view,
        keep_removed=keep_removed,
        kept_removed=bool(plan.kept_removed),
        # the set as listed, plus one revision per write this sync made
        revision=None if target.revision is None else target.revision + writes,
    )
    return SyncResult(target.id, name, plan, view.ground_truth_hash, dry_run=False, local=view)


def _apply(
    client: Client,
    dataset: Dataset,
    eval_set_id: str,
    plan: SyncPlan,
    concurrency: int,
    progress: Progress,
) -> None:
    paths = {item.file: item.path for item in dataset.items}

    def file_for(item: LocalItem) -> str:
        reused = plan.reuse_files.get(item.file)
        if reused:
            return reused
        with paths[item.file].open("rb") as handle:
            uploaded = client.call(
                ops.upload_file(
                    handle,
                    filename=Path(item.file).name,
                    metadata={"dataset": dataset.name, "path": item.file},
                )
            )
        progress("upload", 1)
        return uploaded.id

    def metadata(item: LocalItem) -> dict[str, Any]:
        split = {"split": item.split} if item.split is not None else {}
        return {"path": item.file, "sha256": item.sha256, **split}

    def create(item: LocalItem) -> None:
        client.call(
            ops.create_item(eval_set_id, file_for(item), item.ground_truth, metadata=metadata(item))
        )
        progress("item", 1)

    def replace(pair: tuple[LocalItem, RemoteItem]) -> None:
        item, old = pair
        file_id = file_for(item)
        client.call(ops.delete_item(eval_set_id, old.id))
        client.call(
            ops.create_item(eval_set_id, file_id, item.ground_truth, metadata=metadata(item))
        )
        progress("item", 1)

    def update(pair: tuple[LocalItem, RemoteItem]) -> None:
        item, old = pair
        moved = {"split": item.split} if item.split != old.split else None
        client.call(
            ops.update_item(eval_set_id, old.id, ground_truth=item.ground_truth, metadata=moved)
        )
        progress("item", 1)

    def delete(old: RemoteItem) -> None:
        client.call(ops.delete_item(eval_set_id, old.id))
        progress("item", 1)

    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        # list() re-raises the first failure; completed writes stay done for the next run.
        list(pool.map(delete, plan.delete))
        list(pool.map(replace, plan.replace))
        list(pool.map(update, plan.update))
        list(pool.map(create, plan.create))
