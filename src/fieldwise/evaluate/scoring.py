"""From a run set on disk to a :class:`~fieldwise.compare.ComparisonResult`.

The run set holds everything needed (item snapshot with ground truth, records with outputs,
the compare spec recorded at sync time), so scoring never asks the service.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fieldwise.compare import ComparisonResult, FieldSpec, build_frame, compare
from fieldwise.errors import CompareError
from fieldwise.gate import FailedRun
from fieldwise.runner import LoadedRunSet, RunRecord


@dataclass(frozen=True)
class Scored:
    """A comparison with what it was computed from."""

    result: ComparisonResult
    baseline: str
    candidate: str | None
    failed_runs: tuple[FailedRun, ...]
    documents: int
    item_names: Mapping[str, str]


def resolve_version(runset: LoadedRunSet, wanted: str | None, position: int) -> str | None:
    """A version id of the run set from an id, an alias it was requested as, or a position."""
    versions = runset.manifest.versions
    if wanted is None:
        return versions[position].version_id if len(versions) > position else None
    for ref in versions:
        if wanted in (ref.version_id, ref.requested):
            return ref.version_id
    known = ", ".join(f"{v.requested} ({v.version_id})" for v in versions)
    raise CompareError(
        f"version {wanted!r} is not in run set {runset.manifest.runset_id} (it has {known})"
    )


def _failed(record: RunRecord) -> FailedRun:
    error = record.error or {}
    reason = str(error.get("reason") or record.status)
    message = str(error.get("message") or "")
    return FailedRun(
        item=record.item_id,
        version=record.version_id,
        error=f"{reason}: {message}" if message else reason,
        run_id=record.run_id,
    )


def score_runset(
    runset: LoadedRunSet,
    specs: Mapping[str, FieldSpec],
    *,
    baseline: str | None = None,
    candidate: str | None = None,
    seed: int = 0,
    n_bootstrap: int = 1000,
) -> Scored:
    """Compare the run set's outputs with its ground truth.

    ``baseline`` / ``candidate`` default to the run set's first and second versions. Pairs
    with no succeeded output (failed runs, or pairs not run yet) count as missed values, and
    the failed ones are listed, so a version never gains by failing.
    """
    base = resolve_version(runset, baseline, 0)
    cand = resolve_version(runset, candidate, 1)
    if base is None:
        raise CompareError(f"run set {runset.manifest.runset_id} has no versions")
    truth = {item.item_id: item.ground_truth for item in runset.items}
    predictions: dict[str, dict[str, Any]] = {v: {} for v in (base, cand) if v is not None}
    failed: list[FailedRun] = []
    for record in runset.records:
        if record.version_id not in predictions or record.item_id not in truth:
            continue
        if record.status == "succeeded" and record.output is not None:
            predictions[record.version_id][record.item_id] = record.output
        else:
            failed.append(_failed(record))
    frame = build_frame(truth, predictions)
    result = compare(
        frame, specs, baseline=base, candidate=cand, seed=seed, n_bootstrap=n_bootstrap
    )
    names = {item.item_id: item.file for item in runset.items}
    return Scored(
        result,
        base,
        cand,
        tuple(sorted(failed, key=lambda f: (f.item, f.version))),
        documents=len(truth),
        item_names=names,
    )
