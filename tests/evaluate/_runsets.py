"""Run sets written to disk the way the runner writes them (manifest, item snapshot, records),
so the commands that read run sets can be exercised on exact, hand-made outcomes."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fieldwise.runner import (
    ItemSnapshot,
    Manifest,
    RecordWriter,
    RunRecord,
    VersionRef,
    create_runset,
)

SPEC = {
    "date_order": "YMD",
    "fields": {"invoice_number": {"type": "string"}, "total": {"type": "currency"}},
}


def snapshots(truth: Mapping[str, Mapping[str, Any]]) -> list[ItemSnapshot]:
    """The item snapshots of ``truth`` (document name -> ground truth), ids ``it_<document>``."""
    return [
        ItemSnapshot(f"it_{name}", f"documents/{name}.pdf", f"sha_{name}", f"file_{name}", dict(gt))
        for name, gt in sorted(truth.items())
    ]


def write_runset(
    results: Path,
    runset_id: str,
    truth: Mapping[str, Mapping[str, Any]],
    outputs: Mapping[str, Mapping[str, Mapping[str, Any] | None]],
    *,
    spec: Mapping[str, Any] = SPEC,
    gate: Mapping[str, Any] | None = None,
    arguments: Mapping[str, Any] | None = None,
) -> str:
    """``truth``: document name -> ground truth; ``outputs``: version -> document name ->
    extracted value, or None for a run that failed. Item ids are ``it_<document>``;
    ``arguments`` are added to the manifest's (a shard's ``shard``, ``set_items``...)."""
    items = snapshots(truth)
    manifest = Manifest(
        runset_id=runset_id,
        service_identity="local",
        base_url="http://127.0.0.1:1",
        processor_id="proc",
        eval_set_id="es_1",
        eval_set_name="invoices",
        dataset="invoices",
        ground_truth_hash=None,
        versions=tuple(VersionRef(v, v, config_hash=f"cfg_{v}") for v in outputs),
        item_count=len(items),
        created_at="2026-03-01T12:00:00Z",
        arguments={
            "eval_set_metadata": {"compare_spec": dict(spec), "gate": gate},
            **(arguments or {}),
        },
    )
    directory = create_runset(results, manifest, items)
    with RecordWriter(directory) as writer:
        for version, by_doc in outputs.items():
            for name, value in sorted(by_doc.items()):
                failed = value is None
                writer.append(
                    RunRecord(
                        item_id=f"it_{name}",
                        file=f"documents/{name}.pdf",
                        file_sha256=f"sha_{name}",
                        version_id=version,
                        version_alias=None,
                        run_id=f"run_{version}_{name}",
                        status="failed" if failed else "succeeded",
                        output=None if failed else {"value": dict(value or {})},
                        latency_ms=1,
                        attempts=1,
                        cached=False,
                        error={"reason": "timeout", "message": "no answer"} if failed else None,
                        finished_at="2026-03-01T12:00:01Z",
                    )
                )
    return runset_id
