"""A run set scored at scale: its cells as a partitioned Parquet store next to its records,
scored shard by shard in-process or on a Dask cluster (see :mod:`fieldwise.scale`).

The store lives in ``<run set>/cells/`` and its header records the provenance (run set,
ground-truth and spec hashes, versions, fieldwise version); a store whose provenance matches
is scored again without being rewritten, so re-scoring never asks the service nor re-reads
the records.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from fieldwise import __version__
from fieldwise._errors import CompareError
from fieldwise.compare import ComparisonResult, FieldSpec, reduce_statistics, spec_digest
from fieldwise.evaluate._combine import runset_truth_hash
from fieldwise.evaluate._regate import N_RESAMPLES, runset_statistics
from fieldwise.evaluate._scoring import failed_runs, resolve_pair, runset_frame
from fieldwise.evaluate._statistics_cache import save_statistics, statistics_key
from fieldwise.gate import FailedRun
from fieldwise.runner import LoadedRunSet, cells_path, records_stamp
from fieldwise.scale import read_header, score_store, write_cells

__all__ = ["DOCUMENTS_PER_SHARD", "ScaledScore", "score_at_scale"]

#: Shard size: small enough for a worker's memory, large enough to amortise a task.
DOCUMENTS_PER_SHARD = 20_000


@dataclass(frozen=True)
class ScaledScore:
    """The reduced figures, where the cells live, the pairs with no output, the run set
    scored and what ``--force`` let through when run sets were combined."""

    result: ComparisonResult
    cells: str
    failed_runs: tuple[FailedRun, ...]
    scheduler: str | None
    runset: LoadedRunSet
    forced: tuple[str, ...] = ()


def _provenance(
    runset: LoadedRunSet, specs: Mapping[str, FieldSpec], versions: list[str]
) -> dict[str, Any]:
    # the records' size and time too: a resumed run set's store is written again
    return {
        "fieldwise_version": __version__,
        "runset_id": runset.manifest.runset_id,
        "records": records_stamp(runset.directory),
        "spec": spec_digest({name: repr(spec) for name, spec in sorted(specs.items())}),
        "versions": versions,
        "ground_truth_hash": runset_truth_hash(runset),
    }


def score_at_scale(
    runset: LoadedRunSet,
    specs: Mapping[str, FieldSpec],
    *,
    executor: str | None,
    scheduler: str | None = None,
    baseline: str | None = None,
    candidates: Sequence[str] = (),
    seed: int = 0,
    alpha: float = 0.05,
    shards: int | None = None,
    store: bool = True,
) -> ScaledScore:
    """Write (or reuse) the run set's cell store and score it with ``executor``
    (``in-process`` or ``dask``); without ``store`` the cells go to a temporary store and
    the statistics are not kept. Without an ``executor`` the run set is one partition: its
    stored statistics (or those scored now) are reduced in this process without a cell
    store, as ``gate`` does."""
    if not runset.items:
        raise CompareError(
            f"run set {runset.manifest.runset_id} has no documents: an empty evaluation set "
            "cannot be compared or gated"
        )
    base, cands = resolve_pair(runset, baseline, None, candidates)
    if not cands:
        raise CompareError(f"run set {runset.manifest.runset_id} has a single version")
    if executor is None:
        stats, _ = runset_statistics(runset, specs, base, cands, seed=seed, store=store)
        reduced = reduce_statistics(stats, specs=specs, alpha=alpha, executor="in-process")
        return ScaledScore(reduced, "", failed_runs(runset, base, cands), None, runset)
    with contextlib.ExitStack() as stack:
        # a part of a run set (one split) is scored in a store of its own, thrown away after:
        # the run set's store and statistics stay those of all its items
        folder = runset.directory if store else Path(stack.enter_context(TemporaryDirectory()))
        root = str(cells_path(folder))
        provenance = _provenance(runset, specs, [base, *cands])
        frame, failed = runset_frame(runset, base, cands)
        try:
            header = read_header(root)
        except CompareError:
            header = None
        if header is None or header.get("provenance") != provenance:
            n = shards or max(1, math.ceil(len(runset.items) / DOCUMENTS_PER_SHARD))
            hashes = {item.item_id: item.file_sha256 or item.item_id for item in runset.items}
            write_cells(frame, root, shards=n, provenance=provenance, document_hashes=hashes)
        result = score_store(
            root,
            specs,
            baseline=base,
            candidates=cands,
            seed=seed,
            n_resamples=N_RESAMPLES,
            alpha=alpha,
            executor=executor,
            scheduler=scheduler,
        )
    if store and result.statistics is not None:
        # kept next to the cells: `fieldwise gate` decides from them without reading a cell
        key = statistics_key(runset, specs, [base, *cands], seed=seed, n_resamples=N_RESAMPLES)
        save_statistics(runset.directory, key, result.statistics)
    return ScaledScore(result, root, failed, scheduler, runset)
