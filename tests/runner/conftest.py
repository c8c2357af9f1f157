"""Runner fixtures: a tiny text-document dataset synced into the real local service, and a
processor with two versions whose outputs differ.

The dataset (``make_world``): ``n`` documents ``documents/doc-XX.txt``, each
``Invoice No: INV-XX`` / ``Total: XX.50``; ground truth ``{"invoice_number", "total"}``.
Version 1 extracts only ``invoice_number``; version 2 (published) extracts both.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from fieldwise._config import ClientSettings
from fieldwise._connection import ServiceConnection
from fieldwise.client import Client
from fieldwise.datasets import load_dataset
from fieldwise.service import RunningService
from fieldwise.sync import sync_dataset
from tests.conftest import ServiceFactory
from tests.faults import RequestLog

NUMBER = {"name": "invoice_number", "type": "string", "labels": ["Invoice No"]}
TOTAL = {"name": "total", "type": "currency", "labels": ["Total"]}
V1 = {"engine": "rules", "fields": [NUMBER]}
V2 = {"engine": "rules", "fields": [NUMBER, TOTAL]}


@dataclass
class World:
    service: RunningService
    log: RequestLog
    eval_set_id: str
    processor_id: str
    v1: str
    v2: str
    root: Path

    def connection(self, **settings: Any) -> ServiceConnection:
        return ServiceConnection(
            self.service.base_url,
            self.service.api_key,
            ClientSettings(**settings),
            identity=self.service.base_url,
        )

    def run_creates(self) -> int:
        return sum(
            1
            for method, path in self.log.requests
            if method == "POST" and path == f"/processors/{self.processor_id}/runs"
        )


def write_text_dataset(root: Path, n: int, *, fail: frozenset[int] = frozenset()) -> Path:
    (root / "documents").mkdir(parents=True, exist_ok=True)
    (root / "dataset.toml").write_text(
        '[dataset]\nname = "texts"\ndescription = "tiny text invoices"\n\n'
        '[fields.invoice_number]\ntype = "string"\n\n[fields.total]\ntype = "currency"\n'
    )
    lines = []
    for k in range(n):
        name = f"documents/doc-{k:02d}.txt"
        marker = "\nFAIL" if k in fail else ""
        (root / name).write_text(f"Invoice No: INV-{k:02d}\nTotal: {k}.50{marker}\n")
        truth = {"invoice_number": f"INV-{k:02d}", "total": k + 0.5}
        lines.append(json.dumps({"file": name, "ground_truth": truth}))
    (root / "ground_truth.jsonl").write_text("\n".join(lines) + "\n")
    return root


MakeWorld = Callable[..., World]


@pytest.fixture
def make_world(start_service: ServiceFactory, tmp_path: Path) -> MakeWorld:
    def make(
        n: int = 4,
        *,
        v1: dict[str, Any] = V1,
        v2: dict[str, Any] = V2,
        fail: frozenset[int] = frozenset(),
        wrap: Callable[[Any], Any] | None = None,
        **settings: Any,
    ) -> World:
        holder: dict[str, RequestLog] = {}

        def wrapped(app: Any) -> Any:
            holder["log"] = RequestLog(app)
            return wrap(holder["log"]) if wrap else holder["log"]

        service = start_service(wrap=wrapped, **settings)
        root = write_text_dataset(tmp_path / "texts", n, fail=fail)
        with Client(service.base_url, service.api_key) as client:
            synced = sync_dataset(
                client,
                load_dataset(root),
                state_dir=tmp_path / ".fw-sync",
                service_identity=service.base_url,
            )
            assert synced.eval_set_id is not None
            processor = client.create_processor("texts")
            first = client.create_version(processor.id, v1)
            second = client.create_version(processor.id, v2)
            client.publish_version(processor.id, second.id)
        holder["log"].clear()
        return World(
            service, holder["log"], synced.eval_set_id, processor.id, first.id, second.id, root
        )

    return make
