"""Acceptance: a real Dask scheduler and two worker processes on loopback score a run set of
2M cells x 2 versions exactly as the in-process executor does, even when a worker is killed
mid-way.

The cluster is started with Dask's own commands (``dask scheduler``, ``dask worker``) as
subprocesses on free ports; readiness is observed (the scheduler's address in its log, then
two workers registered), never slept on; every process is stopped when the test ends.
"""

from __future__ import annotations

import signal
from typing import Any

import pytest

from fieldwise.scale import score_store, write_cells
from tests.scale._cluster import BOUND, Cluster, cluster
from tests.scale._data import SPECS, figures_of, generated_frame

__all__ = ["cluster"]  # the fixture, used by name


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> str:
    """2M cells per version (666,667 documents x 3 fields), in 24 shards."""
    root = tmp_path_factory.mktemp("cells") / "store"
    frame = generated_frame(666_667, seed=5)
    write_cells(frame, str(root), shards=24, provenance={"generated": "tests.scale._data"})
    return str(root)


def _figures(**kwargs: Any) -> dict[str, Any]:
    result = score_store(kwargs.pop("root"), SPECS, baseline="v1", candidates=["v2"], **kwargs)
    return {"executor": result.executor, "partitions": result.partitions, **figures_of(result)}


def test_dask_cluster_equals_in_process_even_when_a_worker_dies(
    cluster: Cluster, store: str
) -> None:
    local = _figures(root=store)
    assert local["executor"] == "in-process"
    assert local["partitions"] == 24
    assert sum(r["n_cells"] for r in local["fields"] if r["version"] == "v1") == 2_000_001

    killed: list[int] = []

    def kill_first_worker(done: int, total: int) -> None:
        # on an observed state: the first shard's statistics are merged, the rest still run
        if not killed and done < total:
            victim = cluster.workers[0]
            victim.send_signal(signal.SIGKILL)
            victim.wait(timeout=BOUND)
            killed.append(done)

    remote = _figures(
        root=store, executor="dask", scheduler=cluster.address, progress=kill_first_worker
    )
    assert killed == [1]
    assert cluster.workers[0].returncode == -signal.SIGKILL
    assert remote.pop("executor") == "dask"
    assert local.pop("executor") == "in-process"
    # every count, flip, p-value, accuracy and bootstrap bound: equal, not approximately
    assert remote == local
    boot = remote["bootstraps"]["v2"]
    assert boot["documents"] == 666_667
    assert boot["n_resamples"] == 1000
    assert boot["low"] < boot["delta"] < boot["high"]
    sig = {r["field"]: r for r in remote["tests"]}
    assert sig["total"]["fixed"] > sig["total"]["regressed"]
    assert sig["total"]["significant"]
