"""From a run set on disk to a :class:`~fieldwise.compare.ComparisonResult`.

The run set holds everything needed (item snapshot with ground truth, records with outputs,
the compare spec recorded at sync time), so scoring never asks the service.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from fieldwise._errors import CompareError
from fieldwise.compare import ComparisonResult, FieldSpec, build_frame, compare
from fieldwise.gate import FailedRun
from fieldwise.runner import LoadedRunSet, RunRecord


@dataclass(frozen=True)
class Scored:
    """A comparison with what it was computed from. ``candidate`` is the first of
    ``candidates`` (every version compared with the baseline)."""

    result: ComparisonResult
    baseline: str
    candidate: str | None
    failed_runs: tuple[FailedRun, ...]
    documents: int
    item_names: Mapping[str, str]
    candidates: tuple[str, ...] = ()
    #: what the figures were computed with: the specs, the bootstrap seed and alpha
    specs: Mapping[str, FieldSpec] = field(default_factory=dict)
    seed: int = 0
    alpha: float = 0.05


def resolve_version(runset: LoadedRunSet, wanted: str | None, position: int) -> str | None:
    """A version id of the run set from an id, its ``vN``, the name it was requested as, an
    alias that named it when the run set started (what ``run`` read it as), or a position."""
    versions = runset.manifest.versions
    if wanted is None:
        return versions[position].version_id if len(versions) > position else None
    # what the user typed first (it is how the run set was asked for), then the other names
    for ref in versions:
        if wanted in (ref.version_id, ref.requested):
            return ref.version_id
    for ref in versions:
        if ref.answers_to(wanted):
            return ref.version_id
    known = ", ".join(f"{v.label} = {v.name} ({v.version_id})" for v in versions)
    raise CompareError(
        f"version {wanted!r} is not in run set {runset.manifest.runset_id} (it has {known})"
    )


def resolve_candidates(runset: LoadedRunSet, wanted: Sequence[str], baseline: str) -> list[str]:
    """The candidate version ids: those asked for, else every version but the baseline."""
    if wanted:
        return [c for c in (resolve_version(runset, w, 0) for w in wanted) if c is not None]
    return [v.version_id for v in runset.manifest.versions if v.version_id != baseline]


def _failed(record: RunRecord) -> FailedRun:
    error = record.error or {}
    reason = str(error.get("reason") or record.status)
    message = str(error.get("message") or "")
    return FailedRun(
        item=record.item_id,
        version=record.version_id,
        error=f"{reason}: {message}" if message else reason,
        run_id=record.run_id,
        document=record.file,
    )


def resolve_pair(
    runset: LoadedRunSet,
    baseline: str | None,
    candidate: str | None,
    candidates: Sequence[str],
) -> tuple[str, list[str]]:
    """The baseline (default: the first version) and the candidates (``candidates``, else
    ``candidate``, else every other version) as version ids."""
    base = resolve_version(runset, baseline, 0)
    if base is None:
        raise CompareError(f"run set {runset.manifest.runset_id} has no versions")
    wanted = list(candidates) or ([candidate] if candidate is not None else [])
    return base, resolve_candidates(runset, wanted, base)


def failed_runs(runset: LoadedRunSet, base: str, cands: Sequence[str]) -> tuple[FailedRun, ...]:
    """The (item, version) pairs of ``base`` and ``cands`` with no succeeded output: failed,
    canceled or never run (their values count as missed)."""
    truth = {item.item_id: item.file for item in runset.items}
    versions = {base, *cands}
    failed: list[FailedRun] = []
    recorded = set()
    for record in runset.records:
        if record.version_id not in versions or record.item_id not in truth:
            continue
        recorded.add(record.pair)
        if record.status != "succeeded" or record.output is None:
            failed.append(_failed(record))
    for version in (base, *cands):
        for item, name in truth.items():
            if (item, version) not in recorded:
                failed.append(FailedRun(item, version, "missing: never run", document=name))
    return tuple(sorted(failed, key=lambda f: (f.item, f.version)))


def runset_frame(
    runset: LoadedRunSet, base: str, cands: Sequence[str]
) -> tuple[pd.DataFrame, tuple[FailedRun, ...]]:
    """The comparison frame of the run set's outputs against its ground truth, and the pairs
    with no succeeded output (:func:`failed_runs`)."""
    truth = {item.item_id: item.ground_truth for item in runset.items}
    predictions: dict[str, dict[str, Any]] = {v: {} for v in (base, *cands)}
    for record in runset.records:
        if record.version_id not in predictions or record.item_id not in truth:
            continue
        if record.status == "succeeded" and record.output is not None:
            predictions[record.version_id][record.item_id] = record.output
    return build_frame(truth, predictions), failed_runs(runset, base, cands)


def score_runset(
    runset: LoadedRunSet,
    specs: Mapping[str, FieldSpec],
    *,
    baseline: str | None = None,
    candidate: str | None = None,
    candidates: Sequence[str] = (),
    seed: int = 0,
    n_bootstrap: int = 1000,
    alpha: float = 0.05,
) -> Scored:
    """Compare the run set's outputs with its ground truth.

    ``baseline`` defaults to the run set's first version; the candidates are ``candidates``,
    else ``candidate``, else every other version of the run set (none is dropped). Pairs with
    no succeeded output (failed or canceled runs, and pairs never run) count as missed values
    and are listed as failed runs, so a version never gains by failing. Raises
    :class:`CompareError` for a run set without documents or versions.
    """
    if not runset.items:
        raise CompareError(
            f"run set {runset.manifest.runset_id} has no documents: an empty evaluation set "
            "cannot be compared or gated"
        )
    base, cands = resolve_pair(runset, baseline, candidate, candidates)
    frame, failed = runset_frame(runset, base, cands)
    result = compare(
        frame,
        specs,
        baseline=base,
        candidates=cands,
        seed=seed,
        n_bootstrap=n_bootstrap,
        alpha=alpha,
    )
    return Scored(
        result,
        base,
        cands[0] if cands else None,
        failed,
        documents=len(runset.items),
        item_names={item.item_id: item.file for item in runset.items},
        candidates=tuple(cands),
        specs=dict(specs),
        seed=seed,
        alpha=alpha,
    )
