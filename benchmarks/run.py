"""Runs per second: ``fieldwise.runner`` next to a naive sequential loop over the same API.

Usage: python benchmarks/run.py [--concurrency N] [--workers N]

Starts the local service in a thread (python engines allowed), syncs datasets/invoices into
it, and measures two engines: a trivial python engine that returns a constant (what is left is
the harness and the service's own overhead) and the real rules engine with the dataset's
baseline config. For each engine, one warm-up pass fills the service's parse cache, then the
naive loop (create a run, poll it every 50 ms, read its output, next document) and
``run_versions`` (bounded concurrency, polling with backoff, records fsynced per pair, no run
cache) each run every document once; a second ``run_versions`` shows the run cache. Prints one
line with the figures side by side and the ratios.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fieldwise._config import ClientSettings, ServiceSettings
from fieldwise._connection import ServiceConnection
from fieldwise.client import Client, ops
from fieldwise.datasets import load_dataset
from fieldwise.runner import run_versions
from fieldwise.service import create_app, start_in_thread
from fieldwise.sync import sync_dataset

DATASET = Path(__file__).resolve().parent.parent / "datasets" / "invoices"
TERMINAL = ("succeeded", "failed", "canceled")


def constant(doc: Any) -> dict[str, Any]:
    """The trivial engine (entrypoint ``__main__:constant``: this script, in the service)."""
    return {"value": {"kind": "invoice"}, "metadata": {}}


def _naive(client: Client, processor_id: str, version_id: str, file_ids: list[str]) -> float:
    start = time.perf_counter()
    for file_id in file_ids:
        run = client.call(ops.create_run(processor_id, file_id, version_id=version_id))
        while run.status not in TERMINAL:
            time.sleep(0.05)
            run = client.call(ops.get_run(processor_id, run.id))
        assert run.status == "succeeded", run.failure_message
        assert run.output is not None
    return time.perf_counter() - start


def _runner(
    connection: ServiceConnection, work: Path, processor_id: str, version_id: str, **kw: Any
) -> tuple[float, int]:
    start = time.perf_counter()
    result = run_versions(
        connection,
        eval_set="invoices",
        processor_id=processor_id,
        versions=[version_id],
        results_dir=work / "results",
        cache_path=work / "cache" / "runs.sqlite",
        **kw,
    )
    assert result.complete, result.summary()
    assert result.failed == 0, result.summary()
    return time.perf_counter() - start, result.new_runs


def main(argv: list[str]) -> int:
    concurrency = int(argv[argv.index("--concurrency") + 1]) if "--concurrency" in argv else 8
    workers = int(argv[argv.index("--workers") + 1]) if "--workers" in argv else 2
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        settings = ServiceSettings(
            data_dir=work / "service",
            api_keys=("fw_bench_key_0123456789",),
            allow_python_engines=True,
            workers=workers,
        )
        service = start_in_thread(settings, app=create_app(settings, announce=lambda _m: None))
        try:
            connection = ServiceConnection(
                service.base_url, service.api_key, ClientSettings(), identity=service.base_url
            )
            with connection.client() as client:
                dataset = load_dataset(DATASET)
                sync_dataset(
                    client, dataset, state_dir=work / "sync", service_identity=service.base_url
                )
                es = client.call(ops.list_evaluation_sets(name="invoices")).data[0]
                file_ids = [i.file_id for i in client.list_items(es.id)]
                processor = client.create_processor("bench")
                shipped = dataset.processor.version("baseline") if dataset.processor else None
                assert shipped is not None, "datasets/invoices ships no baseline config"
                baseline = shipped.config
                engines = {
                    "trivial": {"engine": "python", "entrypoint": "__main__:constant"},
                    "real": dict(baseline),
                }
                figures: dict[str, dict[str, float]] = {}
                for name, config in engines.items():
                    version = client.create_version(processor.id, config).id
                    _runner(connection, work / f"warm-{name}", processor.id, version)
                    naive = _naive(client, processor.id, version, file_ids)
                    ours, runs = _runner(
                        connection,
                        work / f"ours-{name}",
                        processor.id,
                        version,
                        concurrency=concurrency,
                        use_cache=False,
                    )
                    cached, _ = _runner(connection, work / f"warm-{name}", processor.id, version)
                    assert runs == len(file_ids)
                    figures[name] = {
                        "naive": len(file_ids) / naive,
                        "ours": len(file_ids) / ours,
                        "cached": len(file_ids) / cached,
                    }
        finally:
            service.stop()
    parts = [
        f"{name} engine: naive loop {f['naive']:.1f} runs/s, runner {f['ours']:.1f} runs/s "
        f"(x{f['ours'] / f['naive']:.1f}), cached re-run {f['cached']:.0f} pairs/s"
        for name, f in figures.items()
    ]
    print(
        f"run: {len(file_ids)} docs, concurrency {concurrency}, {workers} service workers; "
        + "; ".join(parts)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
