"""Gate a run set from its merged sufficient statistics: the gate reads counts, not cells.

The statistics (:class:`~fieldwise.compare.Sufficient`) are stored with the run set
(see :mod:`fieldwise.evaluate._statistics_cache`) by the first command that scores it:
``compare --executor in-process|dask`` merges them shard by shard, and ``gate`` itself scores
the run set as one partition when nothing is stored yet. Whichever produced them,
they are the same integers, and :func:`regate` reduces them under the policy's alpha and
decides with :func:`~fieldwise.gate.decide` on a
the reduced figures: gating again under a new policy reads no cell, runs no comparator and
never asks the service.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from fieldwise._errors import CompareError
from fieldwise.compare import (
    ComparisonResult,
    FieldSpec,
    Sufficient,
    partition_statistics,
    reduce_statistics,
    score_cells,
    weight_classes,
)
from fieldwise.evaluate._scoring import failed_runs, resolve_pair, runset_frame
from fieldwise.evaluate._statistics_cache import load_statistics, save_statistics, statistics_key
from fieldwise.gate import EXIT_CODES, Policy, Verdict, decide_all, worst
from fieldwise.runner import LoadedRunSet

__all__ = ["N_RESAMPLES", "Decided", "Regated", "regate", "runset_statistics"]

#: Bootstrap replicates of stored statistics (as every comparison of the toolkit).
N_RESAMPLES = 1000


class Decided:
    """What every verdict-holding result shares: the worst status and its exit code."""

    verdicts: tuple[Verdict, ...]

    @property
    def status(self) -> str | None:
        """The worst verdict over every candidate (None without a gate)."""
        return worst([v.status for v in self.verdicts]) if self.verdicts else None

    @property
    def exit_code(self) -> int:
        """0 pass (or no gate), 1 fail, 3 inconclusive: the worst verdict decides."""
        return EXIT_CODES[self.status] if self.status is not None else 0


@dataclass(frozen=True)
class Regated(Decided):
    """The verdicts of a run set decided from its statistics, and where they came from:
    ``source`` is ``"stored statistics"`` when nothing was scored."""

    runset: LoadedRunSet
    baseline: str
    verdicts: tuple[Verdict, ...]
    reduced: ComparisonResult
    source: str
    forced: tuple[str, ...] = ()

    @property
    def verdict(self) -> Verdict | None:
        """The first candidate's verdict."""
        return self.verdicts[0] if self.verdicts else None


def runset_statistics(
    runset: LoadedRunSet,
    specs: Mapping[str, FieldSpec],
    base: str,
    cands: Sequence[str],
    *,
    seed: int = 0,
    store: bool = True,
) -> tuple[Sufficient, str]:
    """The run set's statistics and where they came from: stored ones when their key still
    holds, else computed as one partition by scoring the records and, with ``store``, stored
    for next time."""
    key = statistics_key(runset, specs, [base, *cands], seed=seed, n_resamples=N_RESAMPLES)
    stats = load_statistics(runset.directory, key) if store else None
    if stats is not None:
        return stats, "stored statistics"
    frame, _ = runset_frame(runset, base, cands)
    cells, row_counts, _ = score_cells(frame, specs)
    source = "scored now"
    stats = partition_statistics(
        cells,
        baseline=base,
        candidates=cands,
        weights=weight_classes(specs),
        seed=seed,
        n_resamples=N_RESAMPLES,
        row_counts=row_counts,
    )
    if store:
        save_statistics(runset.directory, key, stats)
    return stats, source


def regate(
    runset: LoadedRunSet,
    specs: Mapping[str, FieldSpec],
    policy: Policy,
    *,
    baseline: str | None = None,
    candidates: Sequence[str] = (),
    seed: int = 0,
    store: bool = True,
    forced: tuple[str, ...] = (),
) -> Regated:
    """One verdict per candidate under ``policy``, decided from the run set's statistics (see
    the module docstring). Raises :class:`CompareError` for a run set without documents or
    with a single version, :class:`~fieldwise.gate.GateError` when it cannot decide."""
    if not runset.items:
        raise CompareError(
            f"run set {runset.manifest.runset_id} has no documents: an empty evaluation set "
            "cannot be compared or gated"
        )
    base, cands = resolve_pair(runset, baseline, None, candidates)
    stats, source = runset_statistics(runset, specs, base, cands, seed=seed, store=store)
    reduced = reduce_statistics(stats, specs=specs, alpha=policy.alpha)
    verdicts: tuple[Verdict, ...] = ()
    if cands:
        verdicts = decide_all(
            reduced,
            policy,
            failed_runs=failed_runs(runset, base, cands),
            documents=len(runset.items),
        )
    return Regated(runset, base, verdicts, reduced, source, forced)
