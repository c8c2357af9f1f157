"""Score a cell store shard by shard, in-process or on a Dask cluster, and reduce.

One pure task, :func:`score_shard` (read one shard of every version, score its cells with
:func:`~fieldwise.compare.score_cells`, keep :func:`partition_statistics`), runs either in a
loop in this process or as one Dask task per shard; the partial statistics are merged as they
arrive (integer addition: order does not matter) and reduced once. A Dask worker that dies
loses only tasks the scheduler runs again elsewhere, so the result is complete and the same.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from fieldwise._errors import CompareError
from fieldwise.compare import (
    ComparisonResult,
    FieldSpec,
    Sufficient,
    empty_statistics,
    merge_statistics,
    partition_statistics,
    reduce_statistics,
    score_cells,
    weight_classes,
)
from fieldwise.scale._cells import read_header, read_shard

__all__ = ["EXECUTORS", "ScoreJob", "score_shard", "score_store"]

EXECUTORS = ("in-process", "dask")

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class ScoreJob:
    """What every shard is scored with: plain values, shipped to each worker."""

    root: str
    versions: tuple[str, ...]
    specs: Mapping[str, FieldSpec]
    baseline: str
    candidates: tuple[str, ...]
    weights: tuple[float, ...]
    seed: int
    n_resamples: int

    def empty(self) -> Sufficient:
        """The statistics of no documents under this job (what merging starts from)."""
        return empty_statistics(
            baseline=self.baseline,
            candidates=self.candidates,
            weights=self.weights,
            seed=self.seed,
            n_resamples=self.n_resamples,
        )


def score_shard(job: ScoreJob, shard: int) -> Sufficient:
    """The statistics of one shard (pure: the same inputs give the same integers anywhere)."""
    frame = read_shard(job.root, shard, list(job.versions))
    if frame.empty:
        return replace(job.empty(), partitions=1)
    cells, row_counts, _ = score_cells(frame, job.specs)
    return partition_statistics(
        cells,
        row_counts=row_counts,
        baseline=job.baseline,
        candidates=job.candidates,
        weights=job.weights,
        seed=job.seed,
        n_resamples=job.n_resamples,
    )


@contextmanager
def dask_client(scheduler: str | None) -> Iterator[Any]:
    """A client of the scheduler at ``scheduler``, else of a local cluster of one
    single-threaded worker process per core (closed on exit)."""
    import distributed  # imported on use: heavy, and only the Dask executor needs it

    dist: Any = distributed  # untyped library
    if scheduler:
        try:
            client = dist.Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise CompareError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from exc
        try:
            yield client
        finally:
            client.close()
        return
    cluster = dist.LocalCluster(
        n_workers=os.cpu_count() or 1,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",  # never the fixed 8787 another cluster may hold
    )
    try:
        with dist.Client(cluster) as client:
            yield client
    finally:
        cluster.close()


def _run_dask(
    job: ScoreJob, shards: int, scheduler: str | None, progress: Progress | None
) -> Sufficient:
    import distributed

    dist: Any = distributed
    total = job.empty()
    with dask_client(scheduler) as client:
        futures = client.map(score_shard, [job] * shards, range(shards), pure=False)
        for done, future in enumerate(dist.as_completed(futures), start=1):
            total = merge_statistics(total, future.result())
            future.release()
            if progress is not None:
                progress(done, shards)
    return total


def score_store(
    root: str,
    specs: Mapping[str, FieldSpec],
    *,
    baseline: str,
    candidates: Sequence[str],
    seed: int = 0,
    n_resamples: int = 1000,
    alpha: float = 0.05,
    power: float = 0.8,
    executor: str = "in-process",
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> ComparisonResult:
    """Compare ``baseline`` with each of ``candidates`` over the cell store at ``root``.

    ``executor`` is ``"in-process"`` (shards scored one after another here) or ``"dask"`` (one
    task per shard on the cluster at ``scheduler``, else on a local cluster). Both merge the
    same integer statistics, so both give the same :class:`ComparisonResult`. ``progress(done,
    total)`` is called after each shard is merged. The merged statistics come with the
    result (:attr:`ComparisonResult.statistics`), to be stored and reduced again later.
    """
    if executor not in EXECUTORS:
        raise CompareError(f"unknown executor {executor!r}: choose from {', '.join(EXECUTORS)}")
    header = read_header(root)
    versions = [str(v) for v in header["versions"]]
    for name in (baseline, *candidates):
        if name not in versions:
            raise CompareError(f"version {name!r} is not in the cell store at {root}")
    job = ScoreJob(
        root=root,
        versions=(baseline, *candidates),
        specs=dict(specs),
        baseline=baseline,
        candidates=tuple(candidates),
        weights=weight_classes(specs),
        seed=seed,
        n_resamples=n_resamples,
    )
    shards = int(header["shards"])
    if executor == "dask":
        total = _run_dask(job, shards, scheduler, progress)
    else:
        total = job.empty()
        for shard in range(shards):
            total = merge_statistics(total, score_shard(job, shard))
            if progress is not None:
                progress(shard + 1, shards)
    return reduce_statistics(total, specs=specs, alpha=alpha, power=power, executor=executor)
