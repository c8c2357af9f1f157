"""The JSON document of a run set's comparison and verdicts (docs/json.md), from its reduced
statistics: the run set's facts go in the document's ``source``, the figures come from the
one :class:`~fieldwise.compare.ComparisonResult` whichever executor reduced them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fieldwise.compare import (
    ComparisonResult,
    partition_statistics,
    reduce_statistics,
    weight_classes,
)
from fieldwise.evaluate._combine import runset_truth_hash
from fieldwise.evaluate._regate import N_RESAMPLES, Regated
from fieldwise.evaluate._scale import ScaledScore
from fieldwise.evaluate._scoring import Scored, failed_runs
from fieldwise.report import DocumentSource, comparison_document, gate_document
from fieldwise.runner import LoadedRunSet

if TYPE_CHECKING:  # the analysis writes this document into report.json: no import cycle
    from fieldwise.evaluate._analysis import Analysis

__all__ = ["analysis_document", "compared_document", "gated_document", "reduced_of"]


def _source(
    runset: LoadedRunSet,
    baseline: str,
    candidates: tuple[str, ...],
    forced: tuple[str, ...],
    executor: str,
    scheduler: str | None,
) -> DocumentSource:
    return DocumentSource(
        runset_id=runset.manifest.runset_id,
        ground_truth_hash=runset_truth_hash(runset),
        labels={v.version_id: v.label for v in runset.manifest.versions},
        failed_runs=failed_runs(runset, baseline, candidates),
        forced=forced,
        executor=executor,
        scheduler=scheduler,
    )


def compared_document(scaled: ScaledScore) -> dict[str, Any]:
    """``compare --json``: the figures of a run set scored in-process or on Dask."""
    result = scaled.result
    source = _source(
        scaled.runset,
        result.baseline,
        result.candidates,
        scaled.forced,
        result.executor,
        scaled.scheduler,
    )
    return comparison_document(result, source)


def gated_document(
    regated: Regated, *, executor: str = "in-process", scheduler: str | None = None
) -> dict[str, Any]:
    """``gate --json``: the figures the verdicts were decided on, and the verdicts."""
    reduced = regated.reduced
    source = _source(
        regated.runset, reduced.baseline, reduced.candidates, regated.forced, executor, scheduler
    )
    return gate_document(reduced, source, regated.verdicts)


def reduced_of(scored: Scored) -> ComparisonResult:
    """The figures of a whole in-process comparison reduced as one partition: what ``gate``
    and ``compare --json`` read off the same run set, from the cells already scored."""
    result = scored.result
    weights = weight_classes(scored.specs)
    stats = result.statistics
    same = (scored.baseline, tuple(scored.candidates), scored.seed, N_RESAMPLES, weights)
    if stats is not None and same == (
        stats.baseline,
        stats.candidates,
        stats.seed,
        stats.n_resamples,
        stats.weights,
    ):  # the statistics the result's own figures were reduced from: not counted again
        return reduce_statistics(stats, specs=scored.specs, alpha=scored.alpha)
    stats = partition_statistics(
        result.cells,
        baseline=scored.baseline,
        candidates=scored.candidates,
        weights=weights,
        seed=scored.seed,
        n_resamples=N_RESAMPLES,
        row_counts=result.row_counts,
    )
    return reduce_statistics(stats, specs=scored.specs, alpha=scored.alpha)


def analysis_document(analysis: Analysis) -> dict[str, Any]:
    """The document of an analysed run set (``evaluate --json``, ``report.json``): its
    figures reduced from its cells, and its verdicts."""
    scored = analysis.scored
    source = _source(
        analysis.runset, scored.baseline, scored.candidates, analysis.forced, "in-process", None
    )
    return gate_document(reduced_of(scored), source, analysis.verdicts)
