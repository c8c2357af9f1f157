"""The ``--json`` shapes of the commands that print results (documented in docs/json.md).

Every builder returns plain JSON values: shares stay shares (0.931, not "93.1%"), a delta of
accuracy is a share too (its pp rendering belongs to the tables), missing figures are null.
Keys are only ever added within a schema version. The comparison document of ``compare``,
``gate``, ``report`` and ``evaluate`` is built by :mod:`fieldwise.report` (schema 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fieldwise.datasets import Dataset
    from fieldwise.evaluate import Evaluation
    from fieldwise.runner import LoadedRunSet
    from fieldwise.sync import SyncResult
    from fieldwise.train import Trained

__all__ = [
    "SCHEMA_VERSION",
    "dataset_json",
    "evaluation_json",
    "runset_json",
    "sync_json",
    "trained_json",
]

#: Of the documents built here; bumped only when a key changes meaning or disappears.
SCHEMA_VERSION = 1


def evaluation_json(outcome: Evaluation, document: Mapping[str, Any]) -> dict[str, Any]:
    """``evaluate --json``: the evaluation's comparison ``document`` (docs/json.md: figures,
    verdicts) with the run's counts, what was published and where the reports are."""
    runset = outcome.runset
    return {
        **document,
        "dataset": outcome.analysis.report.dataset,
        "eval_set_id": outcome.sync.eval_set_id,
        "processor_id": outcome.setup.processor_id,
        "runset": {
            "runset_id": runset.runset_id,
            "pairs": runset.done,
            "cached": runset.cached,
            "failed": runset.failed,
        },
        "published": outcome.published.id if outcome.published is not None else None,
        "reports": {fmt: str(path) for fmt, path in outcome.report_paths.items()},
        "split": runset.manifest.arguments.get("split"),
        "trained_models": runset.manifest.arguments.get("trained_models") or {},
    }


def sync_json(dataset: Dataset, result: SyncResult) -> dict[str, Any]:
    """``sync --json``: the plan's counts (what was done, or would be with --dry-run)."""
    return {
        "schema": SCHEMA_VERSION,
        "dataset": dataset.name,
        "eval_set_name": result.eval_set_name,
        "eval_set_id": result.eval_set_id,
        "dry_run": result.dry_run,
        "counts": result.plan.counts(),
        "kept_removed": [{"path": i.path, "id": i.id} for i in result.plan.kept_removed],
        "ground_truth_hash": result.ground_truth_hash,
    }


def dataset_json(dataset: Dataset, ground_truth_hash: str) -> dict[str, Any]:
    """``datasets validate --json``: what the dataset holds (it is valid, or exit 2)."""
    processor = dataset.processor
    return {
        "schema": SCHEMA_VERSION,
        "valid": True,
        "name": dataset.name,
        "items": len(dataset.items),
        "ground_truth_hash": ground_truth_hash,
        "fields": {
            name: {"type": spec.get("type"), "critical": bool(spec.get("critical"))}
            for name, spec in dataset.fields.items()
        },
        "processor": None
        if processor is None
        else {
            "name": processor.name,
            "versions": {v.key: str(v.file) for v in processor.versions},
        },
        "splits": dataset.split_sizes(),
        "warnings": [str(w) for w in dataset.warnings],
    }


def runset_json(runset: LoadedRunSet) -> dict[str, Any]:
    """One run set (``runsets list --json`` rows, ``runsets show --json``)."""
    manifest = runset.manifest
    statuses: dict[str, int] = {}
    for record in runset.records:
        statuses[record.status] = statuses.get(record.status, 0) + 1
    return {
        "runset_id": manifest.runset_id,
        "created_at": manifest.created_at,
        "dataset": manifest.dataset,
        "processor_id": manifest.processor_id,
        "eval_set_id": manifest.eval_set_id,
        "eval_set_name": manifest.eval_set_name,
        "ground_truth_hash": manifest.ground_truth_hash,
        "versions": [v.to_json() for v in manifest.versions],
        "items": manifest.item_count,
        "pairs": manifest.pair_count,
        "recorded": len({r.pair for r in runset.records}),
        "complete": runset.complete,
        "statuses": dict(sorted(statuses.items())),
        "directory": str(runset.directory),
    }


def trained_json(trained: Trained) -> dict[str, Any]:
    """``train --json``: the drafted version a training run created, and the run."""
    run = trained.run
    return {
        "schema": SCHEMA_VERSION,
        "processor_id": trained.processor_id,
        "eval_set_id": trained.sync.eval_set_id,
        "training_run_id": run.id,
        "split": run.split,
        "items": len(run.item_ids),
        "params": dict(run.params),
        "model": {"sha256": trained.model_sha256, "size": (run.model or {}).get("size")},
        "version": {
            "id": trained.version.id,
            "number": trained.version.number,
            "status": trained.version.status,
        },
        "started_at": run.started_at,
        "finished_at": run.finished_at,
    }
