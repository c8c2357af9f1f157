"""What predictions are imported against: a local dataset folder (its documents and ground
truth) or an evaluation set on a service (its items, as a run would snapshot them).

Either way the run set gets what ``fieldwise run`` would record: the items with their ground
truth, and the compare spec and gate as the set's metadata, so the run set is scored without
the service and sits beside a service run set of the same documents.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fieldwise.datasets import file_sha256, ground_truth_hash, load_dataset
from fieldwise.runner import Connection, ItemSnapshot, resolve_eval_set, snapshot_items
from fieldwise.sync import source_identity

__all__ = ["IMPORTED_SERVICE", "Target", "dataset_target", "eval_set_target"]

#: The ``service_identity`` of a run set imported against a dataset folder: no service ran it.
IMPORTED_SERVICE = "imported"


@dataclass(frozen=True)
class Target:
    """The documents imported predictions are matched to (``items``, by ``file``), the field
    specs the mapping targets (``fields``), ``[import.<vendor>]`` overrides, and what the run
    set's manifest records about where the items came from."""

    name: str
    items: tuple[ItemSnapshot, ...]
    fields: Mapping[str, Mapping[str, Any]]
    metadata: Mapping[str, Any]
    overrides: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    dataset: str | None = None
    ground_truth_hash: str | None = None
    eval_set_id: str = ""
    service_identity: str = IMPORTED_SERVICE
    base_url: str = ""


def dataset_target(path: Path) -> Target:
    """A local dataset folder (validated as every command validates it); items are named by
    their path in the folder."""
    dataset = load_dataset(path)
    gt_hash = ground_truth_hash(dataset)
    items = tuple(
        ItemSnapshot(
            item_id=item.file,
            file=item.file,
            file_sha256=file_sha256(item.path),
            file_id="",
            ground_truth=dict(item.ground_truth),
            split=item.split,
        )
        for item in dataset.items
    )
    metadata = {  # as `fieldwise sync` records them with the evaluation set
        "dataset": dataset.name,
        "source": source_identity(dataset.root),
        "ground_truth_hash": gt_hash,
        "compare_spec": {"date_order": dataset.date_order, "fields": dict(dataset.fields)},
        "gate": dict(dataset.gate) if dataset.gate is not None else None,
    }
    return Target(
        name=dataset.name,
        items=items,
        fields=dataset.fields,
        metadata=metadata,
        overrides=dataset.imports or {},
        dataset=dataset.name,
        ground_truth_hash=gt_hash,
    )


def eval_set_target(connection: Connection, name_or_id: str) -> Target:
    """An evaluation set by id or name on ``connection``'s service, its items snapshot as a
    run takes it. The field specs are those ``fieldwise sync`` recorded with it;
    ``[import.<vendor>]`` overrides live in a dataset folder, so only the default mappings
    apply."""
    return asyncio.run(_eval_set_target(connection, name_or_id))


async def _eval_set_target(connection: Connection, name_or_id: str) -> Target:
    async with connection.async_client() as aclient:
        es = await resolve_eval_set(aclient, name_or_id)
        items = await snapshot_items(aclient, es.id)
    spec = es.metadata.get("compare_spec")
    fields = spec.get("fields") if isinstance(spec, Mapping) else None
    return Target(
        name=es.name,
        items=tuple(items),
        fields=fields if isinstance(fields, Mapping) else {},
        metadata=dict(es.metadata),
        dataset=es.metadata.get("dataset"),
        ground_truth_hash=es.metadata.get("ground_truth_hash"),
        eval_set_id=es.id,
        service_identity=connection.identity,
        base_url=connection.base_url,
    )
