"""Trained versions fall back to the rules engine where the ranker is unsure."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from fieldwise.service.engines.extraction import extract
from fieldwise.service.engines.parsing import parse_document
from fieldwise.service.engines.training import (
    TrainedModel,
    TrainingExample,
    TrainParams,
    extract_with_model,
    load_model,
    train_model,
)
from fieldwise.service.engines.training.model import UNSURE
from fieldwise.service.engines.training.ranker import Calibration

DATASET = Path(__file__).resolve().parents[4] / "datasets" / "invoices"


@pytest.fixture(scope="module")
def trained() -> tuple[TrainedModel, list[Any]]:
    """A small model on the first text-layer bundled invoices, and those documents."""
    scanned = {
        d["file"]
        for d in json.loads((DATASET / "generator.json").read_text())["documents"]
        if d["scanned"]
    }
    rows = [json.loads(line) for line in (DATASET / "ground_truth.jsonl").read_text().splitlines()]
    chosen = [r for r in rows if r["file"] not in scanned][:8]
    docs = [parse_document((DATASET / r["file"]).read_bytes(), ocr=False) for r in chosen]
    examples = [TrainingExample(d, r["ground_truth"]) for d, r in zip(docs, chosen, strict=True)]
    fields = json.loads((DATASET / "processor" / "v1.json").read_text())["fields"]
    blob = train_model(examples, fields, TrainParams(max_iter=20, date_order="auto"))
    return load_model(blob), docs


def _calibrated(model: TrainedModel, intercept: float) -> TrainedModel:
    """``model`` with every ranker's confidence pinned near sigmoid(intercept)."""
    rankers = {
        name: replace(r, calibration=Calibration(0.0, intercept))
        for name, r in model.rankers.items()
    }
    return replace(model, rankers=rankers)


def _ranked(model: TrainedModel) -> list[str]:
    return [n for n, r in model.rankers.items() if r.classifier is not None]


def test_an_unsure_ranker_gives_way_to_the_rules(trained: tuple[TrainedModel, list[Any]]) -> None:
    model, docs = trained
    unsure = _calibrated(model, -5.0)  # every answer about 0.007 likely right
    assert _ranked(unsure)
    for doc in docs:
        rules = extract(doc, model.config)["value"]
        got = extract_with_model(unsure, doc)["value"]
        for name in _ranked(unsure):
            if name in rules:
                assert got[name] == rules[name], name


def test_a_sure_ranker_keeps_its_own_answer(trained: tuple[TrainedModel, list[Any]]) -> None:
    model, docs = trained
    sure = _calibrated(model, 5.0)  # about 0.993
    out = extract_with_model(sure, docs[0])
    confidences = [out["metadata"][n]["confidence"] for n in _ranked(sure) if n in out["metadata"]]
    assert confidences
    assert all(c > UNSURE for c in confidences)
