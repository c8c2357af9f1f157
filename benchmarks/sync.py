"""B4: re-sync of an unchanged 10,000-document dataset, as a user runs it: a whole CLI process.

Usage: python benchmarks/sync.py [--json] [--documents 10000] [--repeat 5] [--naive]

In a scratch working directory: ``fieldwise sync DATASET --json -q`` once (the first sync,
embedded service, the CLI's own concurrency), then ``--repeat`` more whole processes on the
unchanged dataset, each timed from exec to exit (interpreter start, imports, the embedded
service if started, listing, planning). Every re-sync must report 0 uploads and nothing to
create, update, replace or delete, and must write nothing: the service's database tables
(evaluation sets, items, files) and its blob folder are fingerprinted before and after.
Beside it, the in-process figure (``sync_dataset`` against a service already running in a
thread, same concurrency as the CLI) and the growth exponent over 1 %, 10 % and 100 % of the
documents (whole processes). ``--naive`` also times what a quick script does instead — upload
every document and create every item again, at the full size (slow: minutes).

The CLI processes import the same ``fieldwise`` as this script (its folder is put first on
``PYTHONPATH``: a relative one would not resolve from the scratch directory), and they cache
bytecode as an installed package does, into a scratch ``PYTHONPYCACHEPREFIX`` that the untimed
first sync fills: with ``PYTHONDONTWRITEBYTECODE`` set (some sandboxes and CI images set it),
every timed process would compile fieldwise's sources again, which no user's install does.
``--no-bytecode-cache`` measures that case instead.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import Figure, cold_run, emit, exponent, load_average

GOAL_S = 1.5


def make_dataset(root: Path, count: int) -> Path:
    docs = root / "documents"
    docs.mkdir(parents=True)
    lines = []
    for i in range(count):
        name = f"documents/doc-{i:05d}.txt"
        (root / name).write_text(f"Invoice No: INV-{i:05d}\nTotal: {i % 997}.50\n")
        lines.append(
            json.dumps(
                {
                    "file": name,
                    "ground_truth": {"invoice_number": f"INV-{i:05d}", "total": (i % 997) + 0.5},
                }
            )
        )
    (root / "ground_truth.jsonl").write_text("\n".join(lines) + "\n")
    (root / "dataset.toml").write_text(
        '[dataset]\nname = "bench"\n\n[fields.invoice_number]\ntype = "string"\n\n'
        '[fields.total]\ntype = "currency"\n'
    )
    return root


def _cli() -> list[str]:
    return [sys.executable, "-c", "from fieldwise.cli import main; main()"]


def child_env(pycache: Path | None) -> dict[str, str]:
    """What the CLI processes run with: this script's ``fieldwise`` first on the path, and
    bytecode cached under ``pycache`` (None: as the environment says)."""
    spec = importlib.util.find_spec("fieldwise")
    if spec is None or spec.origin is None:
        raise SystemExit("fieldwise is not importable")
    source_root = str(Path(spec.origin).resolve().parents[1])
    env = {"PYTHONPATH": os.pathsep.join([source_root, os.environ.get("PYTHONPATH", "")])}
    if pycache is not None:
        # An empty value is "unset" for Python; the prefix keeps the source tree clean.
        env |= {"PYTHONDONTWRITEBYTECODE": "", "PYTHONPYCACHEPREFIX": str(pycache)}
    return env


def _sync_once(work: Path, dataset: Path, env: dict[str, str]) -> dict[str, Any]:
    out = subprocess.run(
        [*_cli(), "sync", str(dataset), "--json", "-q"],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **env},
    )
    if out.returncode != 0:
        raise SystemExit(f"fieldwise sync failed: {out.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def _fingerprint(work: Path) -> str:
    """A digest of what a sync could write: the set, item and file rows and the blob names."""
    data_dir = work / ".fieldwise" / "service"
    digest = hashlib.sha256()
    with sqlite3.connect(f"file:{data_dir / 'fieldwise.db'}?mode=ro", uri=True) as db:
        for table in ("evaluation_sets", "evaluation_items", "files"):
            for row in db.execute(f"SELECT * FROM {table} ORDER BY id"):
                digest.update(repr(row).encode())
    for path in sorted((data_dir / "blobs").rglob("*")):
        digest.update(path.name.encode())
    return digest.hexdigest()


def _counts(result: dict[str, Any]) -> dict[str, int]:
    counts = result["counts"]
    return {k: int(counts[k]) for k in ("create", "update", "replace", "delete", "upload")}


def _resync_seconds(
    work: Path, dataset: Path, repeat: int, env: dict[str, str]
) -> tuple[list[float], float, int]:
    before = _fingerprint(work)
    seconds: list[float] = []
    peak = 0.0
    for _ in range(repeat):
        elapsed, rss, _out = cold_run([*_cli(), "sync", str(dataset), "-q"], cwd=work, env=env)
        seconds.append(elapsed)
        peak = max(peak, rss)
    result = _sync_once(work, dataset, env)
    counts = _counts(result)
    assert not any(counts.values()), f"an unchanged re-sync planned writes: {counts}"
    writes = 0 if _fingerprint(work) == before else 1
    return seconds, peak, writes


def _in_process(work: Path, dataset: Path, repeat: int) -> list[float]:
    from fieldwise._config import ServiceSettings
    from fieldwise.client import Client
    from fieldwise.datasets import load_dataset
    from fieldwise.service import create_app, start_in_thread
    from fieldwise.sync import sync_dataset

    settings = ServiceSettings(data_dir=work / "svc", api_keys=("k",))
    seconds = []
    with (
        start_in_thread(settings, app=create_app(settings)) as svc,
        Client(svc.base_url, "k") as client,
    ):
        for attempt in range(repeat + 1):
            start = time.perf_counter()
            sync_dataset(
                client, load_dataset(dataset), state_dir=work / ".fw", service_identity="bench"
            )
            if attempt:  # the first one is the initial sync
                seconds.append(time.perf_counter() - start)
    return seconds


def _naive(work: Path, dataset: Path) -> float:
    from fieldwise._config import ServiceSettings
    from fieldwise.client import Client, ops
    from fieldwise.datasets import load_dataset
    from fieldwise.service import create_app, start_in_thread

    settings = ServiceSettings(data_dir=work / "naive", api_keys=("k",))
    with (
        start_in_thread(settings, app=create_app(settings)) as svc,
        Client(svc.base_url, "k") as client,
    ):
        loaded = load_dataset(dataset)
        target = client.call(ops.create_evaluation_set("naive")).id
        start = time.perf_counter()
        for item in loaded.items:
            uploaded = client.upload_file(item.path.read_bytes(), filename=item.path.name)
            client.call(ops.create_item(target, uploaded.id, item.ground_truth))
        return time.perf_counter() - start


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--naive", action="store_true", help="also time the naive re-upload")
    parser.add_argument(
        "--no-bytecode-cache",
        action="store_true",
        help="keep the environment's PYTHONDONTWRITEBYTECODE (every process compiles again)",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = child_env(None if args.no_bytecode_cache else root / "pycache")
        sizes = sorted({max(1, args.documents // 100), max(1, args.documents // 10)})
        grow: dict[int, float] = {}
        for n in [*sizes, args.documents]:
            work = root / f"w{n}"
            work.mkdir()
            dataset = make_dataset(root / f"d{n}", n)
            _sync_once(work, dataset, env)
            repeat = args.repeat if n == args.documents else 3
            seconds, peak, writes = _resync_seconds(work, dataset, repeat, env)
            grow[n] = Figure(tuple(seconds)).median
        full = root / f"d{args.documents}"
        in_process = Figure(tuple(_in_process(root / "inproc", full, 3)))
        naive = _naive(root, full) if args.naive else None
    resync = Figure(tuple(seconds))
    median = resync.median
    row = {
        "row": "B4 re-sync 10k",
        "fieldwise": round(median, 2),
        "alternative": round(naive, 1) if naive is not None else None,
        "unit": "s",
        "ratio": round(median / naive, 3) if naive is not None else None,
        "goal": f"<= {GOAL_S} s, 0 uploads, 0 writes",
        "met": median <= GOAL_S and writes == 0,
        "exponent": round(exponent(list(grow), list(grow.values())), 2),
        "peak_rss_mb": round(peak),
        "fieldwise_s_min_med_max": resync.min_med_max(2),
        "in_process_s_min_med_max": in_process.min_med_max(2),
        "uploads": 0,
        "writes": writes,
        "documents": args.documents,
        "bytecode_cache": not args.no_bytecode_cache,
        "whole_process_s_by_size": {str(k): round(v, 2) for k, v in grow.items()},
        "alternative_is": "naive re-upload of every document, full size"
        if naive is not None
        else "none (pass --naive)",
        "load_avg": round(load_average(), 2),
    }
    emit(row, as_json=args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
