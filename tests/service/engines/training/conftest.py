"""Real parsed documents with their ground truth: text-layer PDFs of the bundled invoices."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fieldwise.service.engines.parsing import parse_document
from fieldwise.service.engines.training import TrainingExample, TrainParams

DATASET = Path(__file__).resolve().parents[4] / "datasets" / "invoices"
COUNT = 12  # enough documents for every layout to repeat, few enough to train in seconds


@pytest.fixture(scope="session")
def examples() -> list[TrainingExample]:
    """The first text-layer invoices (no OCR), parsed, with their truth."""
    scanned = {
        d["file"]
        for d in json.loads((DATASET / "generator.json").read_text())["documents"]
        if d["scanned"]
    }
    rows = [json.loads(line) for line in (DATASET / "ground_truth.jsonl").read_text().splitlines()]
    chosen = [r for r in rows if r["file"] not in scanned][:COUNT]
    return [
        TrainingExample(
            parse_document((DATASET / r["file"]).read_bytes(), ocr=False), r["ground_truth"]
        )
        for r in chosen
    ]


@pytest.fixture(scope="session")
def fields() -> list[dict[str, Any]]:
    """The baseline rules config's field specs (the trained version's features and fallback)."""
    config = json.loads((DATASET / "processor" / "v1.json").read_text())
    return list(config["fields"])


@pytest.fixture(scope="session")
def params() -> TrainParams:
    """Small trees: fast, still enough to learn a dozen documents."""
    return TrainParams(max_iter=40, date_order="auto")


@pytest.fixture(scope="session")
def blob(
    examples: list[TrainingExample], fields: list[dict[str, Any]], params: TrainParams
) -> bytes:
    from fieldwise.service.engines.training import train_model

    return train_model(examples, fields, params)
