"""Scale-out benchmark: 1M -> 10M -> 100M field comparisons on a local 2-worker Dask cluster.

A *field comparison* is one cell (document x field) of one version compared with its ground
truth; the run sets here have 10 fields and 2 versions, so N comparisons are N / 20
documents. For each size the cell store is generated chunk by chunk (never all in memory),
then scored with ``--executor dask`` on a LocalCluster of 2 single-threaded worker processes
with a 2 GiB memory limit each. Printed per size: scoring time, peak RSS of each worker
(``getrusage`` inside the worker), and the growth exponent between consecutive sizes
(log(time ratio) / log(size ratio); 1.0 is linear), and the same from the CPU seconds the
workers spent scoring (less distorted by other load on a shared machine than wall time). At
1M the same store is also scored in-process (``--executor in-process``) and with the
whole-frame ``compare()``, side by side (``--dask-only`` skips them).

Each line ends with the 1-minute load average before and after scoring, the seconds spent
writing the store (about 0 when ``--keep DIR`` already holds a complete store of that size,
which is reused: the store is the input, not what is measured) and the seconds spent
compacting it (``compact_shard`` per shard, ``--jobs`` at a time: each shard's parts, one per
written chunk, become one file; about 0 when already compacted). ``--no-compact`` scores the
store as written, a part per chunk per shard (the layout before compaction existed).
``--chunk-documents`` sets the chunk size (5,000 gives a 10M store the 100 parts per shard of
a 100M store written in chunks of 50,000). ``--phases`` adds, per size, the CPU seconds per
shard of each step of scoring (read and decode, score the cells, statistics, merge), from two
shards scored in this process.

Run: .venv/bin/python benchmarks/scale.py [--sizes 1e6,1e7,1e8] [--keep DIR] [--phases]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import resource
import shutil
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from fieldwise._errors import CompareError
from fieldwise.compare import (
    compare,
    merge_statistics,
    parse_field_specs,
    partition_statistics,
    score_cells,
    weight_classes,
)
from fieldwise.evaluate._scale import DOCUMENTS_PER_SHARD
from fieldwise.report import DocumentSource, comparison_document
from fieldwise.scale import (
    compact_shard,
    read_header,
    score_store,
    write_header,
    write_parts,
)
from fieldwise.scale._cells import read_shard
from fieldwise.scale._execute import ScoreJob

FIELDS = 10
VERSIONS = ("v1", "v2")
SPECS = parse_field_specs(
    {f"f{k}": {"type": "number" if k % 2 else "string"} for k in range(FIELDS)}
)
CHUNK_DOCUMENTS = 50_000


def chunk_frame(start: int, stop: int, seed: int) -> pd.DataFrame:
    """Documents ``start..stop-1``: 10 fields (strings and numbers), v1 right 85%, v2 87%."""
    rng = np.random.default_rng([seed, start])
    n = stop - start
    items = np.array([f"doc{i:09d}" for i in range(start, stop)], dtype=object)
    parts = []
    for k in range(FIELDS):
        if k % 2:
            expected = np.round(rng.uniform(1, 10_000, n), 2).astype(object)
        else:
            expected = np.array([f"value {v}" for v in rng.integers(0, 5000, n)], dtype=object)
        for version, rate in zip(VERSIONS, (0.85, 0.87), strict=True):
            predicted = expected.copy()
            wrong = rng.random(n) >= rate
            predicted[wrong] = "wrong" if k % 2 == 0 else -1.0
            parts.append(
                pd.DataFrame(
                    {
                        "item": items,
                        "field": f"f{k}",
                        "version": version,
                        "expected": expected,
                        "predicted": predicted,
                        "confidence": rng.uniform(0, 1, n),
                    }
                )
            )
    return pd.concat(parts, ignore_index=True)


def _write_chunk(root: str, shards: int, part: int, start: int, stop: int) -> dict[str, int]:
    """Write documents ``start..stop-1`` as part ``part`` of every shard, once: a marker
    records a written chunk, so an interrupted build resumes where it stopped."""
    marker = Path(root) / f".chunk-{part}.json"
    if marker.exists():
        counts: dict[str, int] = json.loads(marker.read_text())
        return counts
    counts = write_parts(chunk_frame(start, stop, seed=1), root, shards=shards, part=part)
    marker.write_text(json.dumps(counts))
    return counts


def build_store(root: str, comparisons: int, jobs: int = 1, chunk: int = CHUNK_DOCUMENTS) -> int:
    """Write (or reuse) the store of ``comparisons`` cells in chunks of ``chunk`` documents,
    ``jobs`` chunks at a time."""
    documents = comparisons // (FIELDS * len(VERSIONS))
    shards = max(1, math.ceil(documents / DOCUMENTS_PER_SHARD))
    with contextlib.suppress(CompareError):
        header = read_header(root)
        if header["documents"] == documents and header["shards"] == shards:
            return shards  # a complete store of this size, kept by an earlier --keep run
    Path(root).mkdir(parents=True, exist_ok=True)
    starts = list(range(0, documents, chunk))
    stops = [min(documents, s + chunk) for s in starts]
    counts: dict[str, int] = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        written = pool.map(
            _write_chunk,
            [root] * len(starts),
            [shards] * len(starts),
            range(len(starts)),
            starts,
            stops,
        )
        for chunk in written:
            for version, n in chunk.items():
                counts[version] = counts.get(version, 0) + n
    write_header(root, shards=shards, versions=list(VERSIONS), documents=documents, cells=counts)
    return shards


def compact(root: str, shards: int, jobs: int = 1) -> int:
    """Compact every shard of the store, ``jobs`` shards at a time; the folders rewritten."""
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return sum(pool.map(compact_shard, [root] * shards, range(shards)))


def phases(root: str, shards: int) -> dict[str, float]:
    """CPU seconds per shard of each step of scoring, from (up to) two shards."""
    job = ScoreJob(root, ("v1", "v2"), SPECS, "v1", ("v2",), weight_classes(SPECS), 0, 1000)
    spent = {"read": 0.0, "score": 0.0, "statistics": 0.0, "merge": 0.0}
    total = job.empty()
    picked = range(min(2, shards))
    for shard in picked:
        t0 = time.process_time()
        frame = read_shard(root, shard, ["v1", "v2"])
        t1 = time.process_time()
        cells, row_counts, _ = score_cells(frame, SPECS)
        t2 = time.process_time()
        part = partition_statistics(
            cells,
            row_counts=row_counts,
            baseline="v1",
            candidates=("v2",),
            weights=job.weights,
            seed=0,
            n_resamples=1000,
        )
        t3 = time.process_time()
        total = merge_statistics(total, part)
        t4 = time.process_time()
        for step, seconds in zip(spent, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            spent[step] += seconds / len(picked)
    return spent


def _figures(result: Any) -> dict[str, Any]:
    """Every figure as ``compare --json`` prints it, without the source (executor, partitions)."""
    document = comparison_document(result, DocumentSource("rs_benchmark", ""))
    return {key: value for key, value in document.items() if key != "source"}


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e6,1e7,1e8")
    parser.add_argument("--keep", type=Path, help="Keep the stores under this folder.")
    parser.add_argument(
        "--jobs", type=int, default=2, help="Processes writing the stores (not measured)."
    )
    parser.add_argument(
        "--chunk-documents",
        type=int,
        default=CHUNK_DOCUMENTS,
        help="Documents per written chunk (a part per chunk per shard before compaction).",
    )
    parser.add_argument(
        "--no-compact", action="store_true", help="Score the stores as written (a part per chunk)."
    )
    parser.add_argument(
        "--dask-only", action="store_true", help="Skip the in-process figures at the first size."
    )
    parser.add_argument(
        "--phases", action="store_true", help="Add CPU seconds per shard of each scoring step."
    )
    args = parser.parse_args()
    sizes = [int(float(s)) for s in args.sizes.split(",")]

    from distributed import Client, LocalCluster

    base = Path(tempfile.mkdtemp(prefix="fieldwise-scale-")) if args.keep is None else args.keep
    rows: list[dict[str, Any]] = []
    try:
        for comparisons in sizes:
            root = str(base / f"store-{comparisons}")
            t0 = time.perf_counter()
            shards = build_store(root, comparisons, jobs=args.jobs, chunk=args.chunk_documents)
            generated = time.perf_counter() - t0
            t0 = time.perf_counter()
            if not args.no_compact:
                compact(root, shards, jobs=args.jobs)
            compacted = time.perf_counter() - t0
            # a fresh cluster per size, so each worker's peak RSS is this size's peak
            with (
                LocalCluster(
                    n_workers=2, threads_per_worker=1, memory_limit="2GiB", dashboard_address=":0"
                ) as cluster,
                Client(cluster) as client,
            ):
                load_before = os.getloadavg()[0]
                cpu_before = client.run(_cpu_s)
                t0 = time.perf_counter()
                result = score_store(
                    root,
                    SPECS,
                    baseline="v1",
                    candidates=["v2"],
                    executor="dask",
                    scheduler=cluster.scheduler_address,
                )
                seconds = time.perf_counter() - t0
                load_after = os.getloadavg()[0]
                peaks = client.run(_peak_rss_mb)
                cpu = sum(client.run(_cpu_s).values()) - sum(cpu_before.values())
            row: dict[str, Any] = {
                "comparisons": comparisons,
                "shards": shards,
                "generate_s": generated,
                "dask_s": seconds,
                "worker_peak_mb": sorted(peaks.values()),
                "worker_cpu_s": cpu,
                "delta": result.bootstraps["v2"].delta,
                "load": (load_before, load_after),
            }
            if comparisons == sizes[0] and not args.dask_only:
                t0 = time.perf_counter()
                local = score_store(root, SPECS, baseline="v1", candidates=["v2"])
                row["in_process_s"] = time.perf_counter() - t0
                assert _figures(local) == _figures(result), "executors disagree"
                documents = comparisons // (FIELDS * len(VERSIONS))
                frame = chunk_frame(0, min(documents, CHUNK_DOCUMENTS), seed=1)
                if documents <= CHUNK_DOCUMENTS:
                    t0 = time.perf_counter()
                    compare(frame, SPECS, baseline="v1", candidate="v2")
                    row["compare_s"] = time.perf_counter() - t0
            rows.append(row)
            line = (
                f"{comparisons:>12,} comparisons, {shards} shards: dask {seconds:.1f} s, "
                f"workers' CPU {cpu:.1f} s, "
                f"peak per worker {', '.join(f'{p:.0f}' for p in row['worker_peak_mb'])} MB"
            )
            if "in_process_s" in row:
                line += f"; in-process (sharded) {row['in_process_s']:.1f} s"
            if "compare_s" in row:
                line += f", whole-frame compare() {row['compare_s']:.1f} s"
            if len(rows) > 1:
                prev = rows[-2]
                exponent = math.log(seconds / prev["dask_s"]) / math.log(
                    comparisons / prev["comparisons"]
                )
                cpu_exponent = math.log(cpu / prev["worker_cpu_s"]) / math.log(
                    comparisons / prev["comparisons"]
                )
                line += f"; growth exponent {exponent:.3f} (CPU {cpu_exponent:.3f})"
            line += (
                f" [load {load_before:.1f} -> {load_after:.1f}; store {generated:.0f} s, "
                f"compact {'off' if args.no_compact else f'{compacted:.0f} s'}]"
            )
            print(line, flush=True)
            if args.phases:
                spent = phases(root, shards)
                steps = ", ".join(f"{k} {v:.2f}" for k, v in spent.items())
                print(f"{'':>12}  CPU s per shard: {steps}", flush=True)
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
