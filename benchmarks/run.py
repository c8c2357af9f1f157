"""B2: processor runs per second, 500 documents × 2 versions, cold parse cache.

Usage: python benchmarks/run.py [--json] [--documents 500] [--repeat 5]

The documents: ``fieldwise datasets generate invoices`` with no scans (OCR would measure
Tesseract), the two versions the bundled dataset ships (``datasets/invoices/processor``).

- fieldwise, in-process: a fresh local service in a thread (its default workers) per repeat,
  so the parse cache is cold; the set is synced and the processor and versions created before
  the clock starts (the service's engine processes start at its first run, inside the
  clock); then ``run_versions`` (the CLI's default concurrency and waiting: the create and
  the polls held, ``?wait=``; no run cache) runs every (document, version) pair. The
  service's routes and job threads share one interpreter (one GIL) with the client here, as
  in the CLI's embedded service.
- fieldwise, service in its own process: the same, against ``fieldwise serve`` in a child
  process (as deployed), so client and service each have an interpreter of their own; a
  fresh data dir per repeat. The row's headline (and "met") stays the in-process figure;
  this one is beside it.
- fieldwise, whole process: ``fieldwise run`` in a folder whose embedded service holds the set
  and the processor but has parsed nothing; timed from exec to exit.
- the alternative, in-process: ``parse_document`` once per document and the rules engine's
  ``extract`` once per version, in a loop, on one core — what a script without the service
  does with the same documents and configs.

Repeats are interleaved (in-process, own process, loop, in-process, …); the row gives the
median runs/s with min and max, the ratio (service / loop), the growth exponent over 1 %,
10 % and 100 % of the documents (service, in-process) and peak RSS. Five repeats by default:
on this shared 2-core machine one side's wall clock moved by a fifth between repeats minutes
apart, and three repeats let one slow repeat decide the median. ``cpu_ms_per_run`` gives the
median CPU per run of the benchmark process (client and service, in-process runs), of the
engine processes (start-up and decoding included) and of the loop: what the service costs
on top of the engines' work, which the wall clock shows only through the noise.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import Figure, cold_run, emit, exponent, load_average, own_peak_rss_mb

# ``load`` (``fieldwise serve`` in its own process, as deployed) is imported where it is used:
# every engine process the service spawns imports this script again as its ``__main__``, and
# httpx and the client at the top would cost each of them 0.2 s of CPU inside the clock
# (the CLI's entry point imports neither).

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = [ROOT / "datasets" / "invoices" / "processor" / f"v{n}.json" for n in (1, 2)]


def _generate(out: Path, count: int) -> Path:
    command = [sys.executable, "-c", "from fieldwise.cli import main; main()", "datasets"]
    command += ["generate", "invoices", "--count", str(count), "--seed", "7"]
    command += ["--scanned-share", "0", "--out", str(out)]
    subprocess.run(
        command,
        check=True,
        capture_output=True,
    )
    return out


class _Served:
    """``fieldwise serve`` in a child process (its default workers) on ``data_dir``."""

    def __init__(self, data_dir: Path) -> None:
        from load import KEY, _serve

        self.proc, self.base_url = _serve(data_dir)
        self.api_key = KEY

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _prepare(
    data_dir: Path, dataset: Path, work: Path, *, separate: bool = False
) -> tuple[Any, str, list[str]]:
    """A fresh service (in a thread, or ``separate``ly in a child process) holding the set, a
    processor and its two versions."""
    from load import KEY

    from fieldwise._config import ServiceSettings
    from fieldwise.client import Client
    from fieldwise.datasets import load_dataset
    from fieldwise.service import create_app, start_in_thread
    from fieldwise.sync import sync_dataset

    service: Any
    if separate:
        service = _Served(data_dir)
    else:
        settings = ServiceSettings(data_dir=data_dir, api_keys=(KEY,))
        service = start_in_thread(settings, app=create_app(settings, announce=lambda _m: None))
    try:
        with Client(service.base_url, service.api_key) as client:
            sync_dataset(
                client, load_dataset(dataset), state_dir=work / "sync", service_identity="bench"
            )
            processor = client.create_processor("bench")
            versions = [
                client.create_version(processor.id, json.loads(c.read_text())).id for c in CONFIGS
            ]
    except BaseException:
        service.stop()
        raise
    return service, processor.id, versions


def _children_cpu() -> float:
    """CPU seconds of this process's ended and reaped children (the engine processes of a
    service in a thread, once it stopped)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _service_seconds(
    dataset: Path, work: Path, *, separate: bool = False, cpu: dict[str, list[float]] | None = None
) -> float:
    """Seconds ``run_versions`` took; with ``cpu`` (in-thread only), CPU seconds appended
    to ``cpu["process"]`` (this process: client and service, during the clock) and
    ``cpu["engines"]`` (the engine processes, start-up included)."""
    from fieldwise._config import ClientSettings
    from fieldwise._connection import ServiceConnection
    from fieldwise.runner import run_versions

    service, processor_id, versions = _prepare(work / "svc", dataset, work, separate=separate)
    children = _children_cpu()
    try:
        connection = ServiceConnection(
            service.base_url, service.api_key, ClientSettings(), identity=service.base_url
        )
        start, own = time.perf_counter(), time.process_time()
        result = run_versions(
            connection,
            eval_set=_name(dataset),
            processor_id=processor_id,
            versions=versions,
            results_dir=work / "results",
            cache_path=work / "cache.sqlite",
            use_cache=False,
        )
        elapsed, own = time.perf_counter() - start, time.process_time() - own
    finally:
        service.stop()
    if cpu is not None and not separate:
        cpu["process"].append(own)
        cpu["engines"].append(_children_cpu() - children)
    assert result.complete, result.summary()
    assert result.failed == 0, result.summary()
    return elapsed


def _loop_seconds(dataset: Path, cpu: dict[str, list[float]] | None = None) -> float:
    from fieldwise.datasets import load_dataset
    from fieldwise.service.engines.extraction import extract, validate_config
    from fieldwise.service.engines.parsing import parse_document

    configs = [validate_config(json.loads(c.read_text())) for c in CONFIGS]
    paths = [item.path for item in load_dataset(dataset).items]
    start, own = time.perf_counter(), time.process_time()
    for path in paths:
        doc = parse_document(path.read_bytes(), filename=path.name)
        for config in configs:
            extract(doc, config)
    if cpu is not None:
        cpu["loop"].append(time.process_time() - own)
    return time.perf_counter() - start


def _name(dataset: Path) -> str:
    from fieldwise.datasets import load_dataset

    return load_dataset(dataset).name


def _whole_process(dataset: Path, work: Path) -> tuple[float, float]:
    from fieldwise.client import Client
    from fieldwise.datasets import load_dataset
    from fieldwise.service.server import embedded_settings, start_in_thread
    from fieldwise.sync import sync_dataset

    # the embedded service of that folder, prepared in a thread here and stopped again
    data_dir = work / ".fieldwise" / "service"
    service = start_in_thread(embedded_settings(data_dir))
    try:
        with Client(service.base_url, service.api_key) as client:
            sync_dataset(
                client,
                load_dataset(dataset),
                state_dir=work / ".fieldwise",
                service_identity=f"local:{data_dir.resolve()}",
            )
            processor = client.create_processor("bench")
            versions = [
                client.create_version(processor.id, json.loads(c.read_text())).id for c in CONFIGS
            ]
    finally:
        service.stop()
    command = [sys.executable, "-c", "from fieldwise.cli import main; main()", "run"]
    command += ["--eval-set", _name(dataset), "--processor", processor.id, "--no-cache", "-q"]
    for version in versions:
        command += ["--version", version]
    seconds, rss, _out = cold_run(command, cwd=work)
    return seconds, rss


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    parser.add_argument("--documents", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        full = _generate(root / "bench", args.documents)
        runs = 2 * args.documents
        service_s: list[float] = []
        served_s: list[float] = []
        loop_s: list[float] = []
        cpu: dict[str, list[float]] = {"process": [], "engines": [], "loop": []}
        for k in range(args.repeat):  # interleaved
            service_s.append(_service_seconds(full, root / f"svc{k}", cpu=cpu))
            served_s.append(_service_seconds(full, root / f"served{k}", separate=True))
            loop_s.append(_loop_seconds(full, cpu))
        sizes = sorted({max(2, args.documents // 100), max(2, args.documents // 10)})
        grow = {}
        for n in sizes:
            grow[n] = _service_seconds(_generate(root / f"g{n}", n), root / f"grow{n}")
        ours, loop = Figure(tuple(service_s)), Figure(tuple(loop_s))
        served = Figure(tuple(served_s))
        grow[args.documents] = ours.median
        whole_s, whole_rss = _whole_process(full, root / "whole")
    rate, loop_rate = runs / ours.median, runs / loop.median
    row = {
        "row": "B2 runs/s",
        "fieldwise": round(rate, 1),
        "alternative": round(loop_rate, 1),
        "unit": "runs/s",
        "ratio": round(rate / loop_rate, 2),
        "goal": ">= 0.8x",
        "met": rate / loop_rate >= 0.8,
        "exponent": round(exponent(list(grow), list(grow.values())), 2),
        "peak_rss_mb": round(own_peak_rss_mb()),
        "fieldwise_s_min_med_max": ours.min_med_max(2),
        "alternative_s_min_med_max": loop.min_med_max(2),
        "service_process": {
            "runs_per_s": round(runs / served.median, 1),
            "ratio": round(runs / served.median / loop_rate, 2),
            "s_min_med_max": served.min_med_max(2),
        },
        # CPU per run (median ms; steadier than the wall clock on a shared machine): what
        # the service and its client cost on top of the engines' own work, and what the
        # engines cost beside the loop (their start-up and decoding included).
        "cpu_ms_per_run": {
            side: round(1000 * statistics.median(seconds) / runs, 1)
            for side, seconds in cpu.items()
        },
        "whole_process": {"seconds": round(whole_s, 2), "runs_per_s": round(runs / whole_s, 1)},
        "whole_process_peak_rss_mb": round(whole_rss),
        "documents": args.documents,
        "runs": runs,
        "load_avg": round(load_average(), 2),
    }
    emit(row, as_json=args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
