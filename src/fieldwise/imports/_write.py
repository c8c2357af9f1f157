"""The imported versions as a run set, written through the runner's store (the only module of
this package that knows how a run set is kept on disk).

The run set is what ``fieldwise run`` would have made for the target (see
:mod:`fieldwise.imports._target`): its items and ground truth as the item snapshot, the
compare spec and gate as the evaluation set's metadata (so ``compare`` can put an imported run
set beside a service one), and one record per (document, version): ``succeeded`` with the output,
or ``failed`` (reason ``missing``) for a document the source has no output for, so the run
set is complete and those values count as missed. The store writes it whole or not at all
(:func:`fieldwise.runner.write_whole_runset`): a failure leaves nothing half-written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from fieldwise.imports._target import Target
from fieldwise.runner import (
    ItemSnapshot,
    LoadedRunSet,
    Manifest,
    RunRecord,
    VersionRef,
    items_digest,
    new_runset_id,
    provenance,
    write_whole_runset,
)

__all__ = ["ImportedVersion", "version_id", "write_runset"]


def version_id(name: str) -> str:
    """The version id of an imported version (``imported:azure``); ``--baseline azure`` and
    ``--baseline imported:azure`` both name it."""
    return f"imported:{name}"


@dataclass(frozen=True)
class ImportedVersion:
    """One version to write: its name, outputs by dataset file, and its provenance (format,
    path, digest, mapping, and the documents and fields it could not use)."""

    name: str
    outputs: Mapping[str, dict[str, Any]]
    provenance: Mapping[str, Any]


def _records(
    items: Sequence[ItemSnapshot], version: ImportedVersion, source: str, finished_at: str
) -> list[RunRecord]:
    records = []
    for item in items:
        output = version.outputs.get(item.file)
        records.append(
            RunRecord(
                item_id=item.item_id,
                file=item.file,
                file_sha256=item.file_sha256,
                version_id=version_id(version.name),
                version_alias=None,
                run_id=None,
                status="succeeded" if output is not None else "failed",
                output=output,
                latency_ms=None,
                attempts=0,
                cached=False,
                error=None
                if output is not None
                else {"reason": "missing", "message": f"no prediction for it in {source}"},
                finished_at=finished_at,
            )
        )
    return records


def write_runset(
    target: Target,
    versions: Sequence[ImportedVersion],
    results_dir: Path,
    now: datetime,
) -> LoadedRunSet:
    """Write one run set holding ``versions`` over ``target``'s items; return it."""
    items = list(target.items)
    metadata = dict(target.metadata)
    created_at = now.isoformat(timespec="seconds").replace("+00:00", "Z")
    refs = tuple(
        VersionRef(v.name, version_id(v.name), str(v.provenance.get("sha256", "")))
        for v in versions
    )
    imported = {v.name: dict(v.provenance) for v in versions}
    manifest = Manifest(
        runset_id=new_runset_id(now),
        service_identity=target.service_identity,
        base_url=target.base_url,
        processor_id="",
        eval_set_id=target.eval_set_id,
        eval_set_name=target.name,
        dataset=target.dataset,
        ground_truth_hash=target.ground_truth_hash,
        versions=refs,
        item_count=len(items),
        created_at=created_at,
        arguments={
            "imported": imported,
            "items": items_digest(items),
            "eval_set_metadata": metadata,
        },
        provenance={**provenance(items, metadata), "imported": imported},
    )
    records = [
        record
        for version in versions
        for record in _records(
            items, version, str(version.provenance.get("path", version.name)), created_at
        )
    ]
    return write_whole_runset(results_dir, manifest, items, records)
