"""Helpers for training tests: a small copy of the bundled invoices (text-layer PDFs only,
split by listed files), syncing it, and following a training run to its end."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

from fieldwise.client import Client, ops
from fieldwise.client._models import TrainingRun
from fieldwise.datasets import load_dataset
from fieldwise.evaluate import ensure_processor
from fieldwise.sync import sync_dataset

INVOICES = Path(__file__).parents[4] / "datasets" / "invoices"
TERMINAL = ("succeeded", "failed", "canceled")
#: Small models: these tests check the plumbing, not how well the model learns.
FAST = {"max_iter": 20, "calibration_folds": 2}


def mini_invoices(root: Path, *, train: int = 8, test: int = 4) -> Path:
    """The first ``train`` + ``test`` digital invoices of the bundled dataset in ``root``,
    split by listed files (train first)."""
    generated = json.loads((INVOICES / "generator.json").read_text())
    chosen = [d["file"] for d in generated["documents"] if not d["scanned"]][: train + test]
    root.mkdir(parents=True)
    shutil.copytree(INVOICES / "processor", root / "processor")
    (root / "documents").mkdir()
    for file in chosen:
        shutil.copy(INVOICES / file, root / file)
    lines = (INVOICES / "ground_truth.jsonl").read_text().splitlines(keepends=True)
    kept = [line for line in lines if json.loads(line)["file"] in chosen]
    (root / "ground_truth.jsonl").write_text("".join(kept))
    toml = (INVOICES / "dataset.toml").read_text()
    head = toml[: toml.index("\n# Which documents")]
    splits = (
        f"\n[splits]\ntrain = {json.dumps(chosen[:train])}\ntest = {json.dumps(chosen[train:])}\n"
    )
    (root / "dataset.toml").write_text(head.replace('name = "invoices"', 'name = "mini"') + splits)
    return root


def synced(client: Client, root: Path, base_url: str) -> tuple[str, str]:
    """Sync the dataset at ``root`` and set up its processor: (eval_set_id, processor_id)."""
    dataset = load_dataset(root)
    result = sync_dataset(
        client, dataset, state_dir=root.parent / ".state", service_identity=base_url
    )
    assert result.eval_set_id is not None
    return result.eval_set_id, ensure_processor(client, dataset).processor_id


def wait_training(client: Client, run_id: str, timeout: float = 600.0) -> TrainingRun:
    """Poll a training run until it ends (the bound only guards against a hang)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run = client.call(ops.get_training_run(run_id))
        if run.status in TERMINAL:
            return run
        time.sleep(0.05)
    raise AssertionError(f"training run {run_id} did not end")


def train(client: Client, processor_id: str, eval_set_id: str, **body: Any) -> TrainingRun:
    """Start a training run and wait for its end."""
    run = client.call(ops.create_training_run(processor_id, eval_set_id, **body))
    return wait_training(client, run.id)
