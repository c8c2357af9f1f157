"""A run set's records as one pandas table (what ``load_results`` gives a user)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from fieldwise.runner._runset_store import DEFAULT_RESULTS_DIR, load_runset

__all__ = ["RESULT_COLUMNS", "load_results"]

RESULT_COLUMNS = (
    "item_id",
    "file",
    "file_sha256",
    "version_id",
    "version_alias",
    "run_id",
    "status",
    "cached",
    "attempts",
    "latency_ms",
    "error_reason",
    "error_message",
    "value",
    "metadata",
    "ground_truth",
)


def load_results(runset_id: str, results_dir: Path = DEFAULT_RESULTS_DIR) -> pd.DataFrame:
    """One row per recorded (item, version) pair, with the item's ground truth alongside.

    Columns: ``RESULT_COLUMNS``; ``value`` and ``metadata`` are the run output's dicts (None
    for failed pairs). Rows are sorted by item, then by the order the versions were given.
    """
    loaded = load_runset(runset_id, results_dir)
    truth = {i.item_id: i.ground_truth for i in loaded.items}
    order = {v.version_id: n for n, v in enumerate(loaded.manifest.versions)}
    rows = []
    for r in sorted(loaded.records, key=lambda r: (r.item_id, order.get(r.version_id, 0))):
        output = r.output or {}
        error = r.error or {}
        rows.append(
            {
                "item_id": r.item_id,
                "file": r.file,
                "file_sha256": r.file_sha256,
                "version_id": r.version_id,
                "version_alias": r.version_alias,
                "run_id": r.run_id,
                "status": r.status,
                "cached": r.cached,
                "attempts": r.attempts,
                "latency_ms": r.latency_ms,
                "error_reason": error.get("reason"),
                "error_message": error.get("message"),
                "value": output.get("value") if r.output is not None else None,
                "metadata": output.get("metadata") if r.output is not None else None,
                "ground_truth": truth.get(r.item_id),
            }
        )
    return pd.DataFrame(rows, columns=list(RESULT_COLUMNS))
