"""Re-sync of an unchanged 10,000-document dataset: time and requests, against a naive sync.

The naive alternative is what a quick script does: upload every document and create every item
again on each run. It is timed on a subsample and scaled to the full dataset.

    .venv/bin/python benchmarks/sync.py [--documents 10000] [--naive-sample 500]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.faults.RequestLog

from tests.faults import RequestLog

from fieldwise._config import ServiceSettings
from fieldwise.client import Client, ops
from fieldwise.datasets import load_dataset
from fieldwise.service import create_app, start_in_thread
from fieldwise.sync import sync_dataset


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--naive-sample", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        root = make_dataset(work / "bench", args.documents)
        settings = ServiceSettings(data_dir=work / "svc", api_keys=("k",))
        log = RequestLog(create_app(settings))
        with start_in_thread(settings, app=log) as svc, Client(svc.base_url, "k") as client:

            def run_sync() -> tuple[float, Any]:
                started = time.perf_counter()
                result = sync_dataset(
                    client,
                    load_dataset(root),
                    state_dir=work / ".fw",
                    service_identity=svc.base_url,
                    concurrency=8,
                )
                return time.perf_counter() - started, result

            first_s, _ = run_sync()
            first_requests = len(log.requests)
            log.clear()
            again_s, again = run_sync()
            again_requests, again_writes = len(log.requests), len(log.writes())
            assert again.plan.counts()["unchanged"] == args.documents

            dataset = load_dataset(root)
            naive_set = client.call(ops.create_evaluation_set("naive")).id
            sample = dataset.items[: args.naive_sample]
            log.clear()
            started = time.perf_counter()
            for item in sample:
                uploaded = client.upload_file(item.path.read_bytes(), filename=item.path.name)
                client.call(ops.create_item(naive_set, uploaded.id, item.ground_truth))
            naive_s = (time.perf_counter() - started) * args.documents / len(sample)
            naive_requests = len(log.requests) * args.documents // len(sample)
    print(
        f"sync of {args.documents} documents: first {first_s:.1f} s ({first_requests} requests); "
        f"unchanged re-sync {again_s:.2f} s, {again_requests} requests, {again_writes} writes; "
        f"naive re-upload {naive_s:.1f} s, {naive_requests} requests (scaled from "
        f"{args.naive_sample}); re-sync is {naive_s / again_s:.0f}x faster with "
        f"{naive_requests / max(again_requests, 1):.0f}x fewer requests"
    )


if __name__ == "__main__":
    main()
