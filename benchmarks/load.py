"""Load: throughput and latency of processor runs under many concurrent clients.

Usage: python benchmarks/load.py [--runs 2000] [--concurrency 64] [--workers 2]

Starts ``fieldwise serve`` in its own process (as deployed; the trivial python engine of this
file, so what is measured is the service: HTTP, auth, the durable job queue, outputs), then
drives ``--runs`` processor runs from ``--concurrency`` asyncio clients (one AsyncClient, no
retries): each creates a run, polls it with backoff (20 ms doubling to 300 ms) until terminal
and fetches its output. Beside it, the naive alternative: one client doing the same in a
sequential loop, over a tenth of the runs. Prints one line: runs/s of both and their ratio,
p50/p95/p99 of run creation (the POST) and of completion (POST to terminal state seen), and
the count of runs lost or not succeeded (must be 0).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from fieldwise.client import AsyncClient, Client, ops

TERMINAL = ("succeeded", "failed", "canceled")
KEY = "fw_benchmark_key_0123456789"
ENGINE = {"engine": "python", "entrypoint": "load:echo"}


def echo(doc: Any) -> dict[str, Any]:
    """The trivial engine (entrypoint ``load:echo``, imported by the service process)."""
    return {"value": {"first": doc.text.split("\n", 1)[0]}, "metadata": {}}


def _serve(
    data_dir: Path,
    workers: int | None = None,
    *,
    port: int | None = None,
    extra_env: dict[str, str] | None = None,
    log: Path | None = None,
    timeout: float = 30.0,
) -> tuple[subprocess.Popen[bytes], str]:
    """``fieldwise serve`` in a process of its own (as deployed) on ``data_dir``, answering;
    its settings are the defaults (``workers``: the job threads, else the default) plus this
    script's key and engine, whatever ``FIELDWISE_*`` the caller's environment holds, plus
    ``extra_env``. ``port``, ``log``, ``timeout``: as :func:`start_server`'s."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FIELDWISE_")}
    env |= {
        "FIELDWISE_API_KEYS": KEY,
        "FIELDWISE_ALLOW_PYTHON_ENGINES": "1",
        "PYTHONPATH": os.pathsep.join(
            [str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")]
        ),
    }
    if workers is not None:
        env["FIELDWISE_WORKERS"] = str(workers)
    env |= extra_env or {}
    command = [sys.executable, "-c", "from fieldwise.cli import main; main()", "serve"]
    return start_server(
        "the service",
        lambda port: [*command, "--port", str(port), "--data-dir", str(data_dir)],
        "/files",
        env=env,
        port=port,
        log=log,
        timeout=timeout,
    )


def start_server(
    name: str,
    argv: Callable[[int], list[str]],
    ready_path: str,
    *,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    port: int | None = None,
    log: Path | None = None,
    timeout: float = 30.0,
) -> tuple[subprocess.Popen[bytes], str]:
    """The server ``argv(port)`` starts on ``port`` (a free loopback port if None), once
    ``GET ready_path`` (with this script's key) answers below 500; killed if it does not within
    ``timeout`` s or exits first. Its output goes to ``log`` (appended), else nowhere. It is
    the leader of a process group of its own, so that its children can be killed with it."""
    if port is None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
    with open(log or os.devnull, "ab") as out:
        proc = subprocess.Popen(
            argv(port),
            env=env,
            cwd=cwd,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base_url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if httpx.get(base_url + ready_path, headers={"x-api-key": KEY}).status_code < 500:
                return proc, base_url
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    proc.kill()
    proc.wait()
    raise SystemExit(f"{name} did not start")


async def _one(client: AsyncClient, pid: str, file_id: str) -> tuple[float, float, str]:
    start = time.perf_counter()
    run = await client.call(ops.create_run(pid, file_id))
    created = time.perf_counter() - start
    delay = 0.02
    while run.status not in TERMINAL:
        await asyncio.sleep(delay)
        delay = min(delay * 2, 0.3)
        run = await client.call(ops.get_run(pid, run.id))
    completed = time.perf_counter() - start
    if run.output_file_id:
        await client.call(ops.get_file_content(run.output_file_id))
    return created, completed, run.status


async def _drive(base_url: str, pid: str, files: list[str], runs: int, concurrency: int) -> Any:
    gate = asyncio.Semaphore(concurrency)
    async with AsyncClient(base_url, KEY, max_retries=0, max_connections=concurrency) as client:

        async def bounded(k: int) -> tuple[float, float, str]:
            async with gate:
                return await _one(client, pid, files[k % len(files)])

        return await asyncio.gather(*(bounded(k) for k in range(runs)))


def _naive(client: Client, pid: str, files: list[str], runs: int) -> float:
    start = time.perf_counter()
    for k in range(runs):
        run = client.call(ops.create_run(pid, files[k % len(files)]))
        while run.status not in TERMINAL:
            time.sleep(0.02)
            run = client.call(ops.get_run(pid, run.id))
        if run.output_file_id:
            client.call(ops.get_file_content(run.output_file_id))
    return runs / (time.perf_counter() - start)


def _pct(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        proc, base_url = _serve(Path(work) / "svc", args.workers)
        try:
            with Client(base_url, KEY, max_retries=0) as client:
                processor = client.create_processor("load")
                version = client.create_version(processor.id, ENGINE)
                client.publish_version(processor.id, version.id)
                files = [
                    client.upload_file(f"DOC-{k}\nbody\n".encode(), filename=f"{k}.txt").id
                    for k in range(40)
                ]
                naive = _naive(client, processor.id, files, max(1, args.runs // 10))
            start = time.perf_counter()
            results = asyncio.run(
                _drive(base_url, processor.id, files, args.runs, args.concurrency)
            )
            elapsed = time.perf_counter() - start
            with Client(base_url, KEY, max_retries=0) as client:
                stored = list(
                    client.paginate(lambda c: ops.list_runs(processor.id, limit=1000, cursor=c))
                )
        finally:
            proc.kill()
            proc.wait()
    created = [r[0] for r in results]
    completed = [r[1] for r in results]
    bad = sum(1 for r in results if r[2] != "succeeded")
    lost = args.runs + max(1, args.runs // 10) - len(stored)
    throughput = args.runs / elapsed
    print(
        f"load: {args.runs} runs, {args.concurrency} clients, {args.workers} workers: "
        f"{throughput:.1f} runs/s vs naive loop {naive:.1f} runs/s ({throughput / naive:.1f}x); "
        f"create p50/p95/p99 {_pct(created, 50):.0f}/{_pct(created, 95):.0f}/"
        f"{_pct(created, 99):.0f} ms; complete p50/p95/p99 {_pct(completed, 50):.0f}/"
        f"{_pct(completed, 95):.0f}/{_pct(completed, 99):.0f} ms; "
        f"not succeeded {bad}, lost {lost}"
    )


if __name__ == "__main__":
    main()
