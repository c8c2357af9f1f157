"""The imported versions as a run set, written through the runner's store (the only module of
this package that knows how a run set is kept on disk).

The run set is what ``fieldwise run`` would have made for the dataset: the dataset's items
and ground truth as the item snapshot, the compare spec and gate recorded as the evaluation
set's metadata (as ``fieldwise sync`` records them, so ``compare`` can put an imported run set
beside a service one), and one record per (document, version): ``succeeded`` with the output,
or ``failed`` (reason ``missing``) for a document the source has no output for, so the run
set is complete and those values count as missed. It is written into a hidden folder and
renamed into place: a failure leaves nothing half-written.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from fieldwise._errors import RunnerError
from fieldwise.datasets import Dataset, file_sha256, ground_truth_hash
from fieldwise.runner import ItemSnapshot, LoadedRunSet, Manifest, RunRecord, VersionRef
from fieldwise.runner._plan import items_digest, provenance
from fieldwise.runner._store import RecordWriter, create_runset, new_runset_id
from fieldwise.sync._source import source_identity

__all__ = ["IMPORTED_SERVICE", "ImportedVersion", "version_id", "write_runset"]

#: The ``service_identity`` of an imported run set: no service ran it.
IMPORTED_SERVICE = "imported"


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


def _metadata(dataset: Dataset, gt_hash: str) -> dict[str, Any]:
    return {
        "dataset": dataset.name,
        "source": source_identity(dataset.root),
        "ground_truth_hash": gt_hash,
        "compare_spec": {"date_order": dataset.date_order, "fields": dict(dataset.fields)},
        "gate": dict(dataset.gate) if dataset.gate is not None else None,
    }


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
    dataset: Dataset,
    versions: Sequence[ImportedVersion],
    results_dir: Path,
    now: datetime,
) -> LoadedRunSet:
    """Write one run set holding ``versions`` over ``dataset``'s documents; return it."""
    items = [
        ItemSnapshot(
            item_id=item.file,
            file=item.file,
            file_sha256=file_sha256(item.path),
            file_id="",
            ground_truth=dict(item.ground_truth),
            split=item.split,
        )
        for item in dataset.items
    ]
    gt_hash = ground_truth_hash(dataset)
    metadata = _metadata(dataset, gt_hash)
    created_at = now.isoformat(timespec="seconds").replace("+00:00", "Z")
    refs = tuple(
        VersionRef(v.name, version_id(v.name), str(v.provenance.get("sha256", "")))
        for v in versions
    )
    imported = {v.name: dict(v.provenance) for v in versions}
    manifest = Manifest(
        runset_id=new_runset_id(now),
        service_identity=IMPORTED_SERVICE,
        base_url="",
        processor_id="",
        eval_set_id="",
        eval_set_name=dataset.name,
        dataset=dataset.name,
        ground_truth_hash=gt_hash,
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
    try:
        results_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".import-", dir=results_dir))
    except OSError as exc:
        raise RunnerError(f"cannot write a run set under {results_dir}: {exc}") from None
    try:
        directory = create_runset(staging, manifest, items)
        records = [
            record
            for version in versions
            for record in _records(
                items, version, str(version.provenance.get("path", version.name)), created_at
            )
        ]
        with RecordWriter(directory) as writer:
            for record in records:
                writer.append(record, durable=False)
            writer.sync()
        final = results_dir / manifest.runset_id
        directory.rename(final)
    except OSError as exc:
        raise RunnerError(f"cannot write run set {manifest.runset_id}: {exc}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return LoadedRunSet(final, manifest, tuple(items), tuple(records))
