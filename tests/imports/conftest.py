"""A small generated invoice dataset and predictions made from its ground truth with
deliberate errors, listed here so a failing figure can be traced by hand.

Documents in file order (``with_errors``):

0. ``total`` one unit too high (wrong, low confidence)
1. ``vendor_name`` replaced (wrong, low confidence)
2. ``invoice_date`` left out (missed)
3. the last line item left out (its cells missed)
4. the first line item's ``quantity`` one too high (a wrong cell, low confidence)
5. no prediction at all (a missing document: every value missed)
6. ``invoice_number`` replaced (wrong, on a critical field)
7. a spurious ``due_date`` (the generated document 7 has none)
8. and after: exact copies of the ground truth

Plus one prediction for ``invoice-999.pdf``, a document the dataset lacks (``EXTRA``).
Confidences: correct values 0.55-0.95 by a fixed rule, wrong ones 0.3; ``currency`` always
carries ``total``'s (Azure and Textract give the code the amount's confidence).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import pytest

from fieldwise.datasets import Dataset, load_dataset
from fieldwise.datasets.generate import generate_dataset

EXTRA = "invoice-999.pdf"
MISSING_INDEX = 5
LOW = 0.3


def _confidence(path: str, n: int) -> float:
    return round(0.55 + 0.05 * ((n + len(path)) % 9), 2)


def _error(n: int, value: dict[str, Any]) -> set[str]:
    """Apply document n's deliberate error; the dotted paths made wrong."""
    if n == 0:
        value["total"] = round(value["total"] + 1, 2)
        return {"total"}
    if n == 1:
        value["vendor_name"] = "Nonesuch Trading Ltd"
        return {"vendor_name"}
    if n == 2:
        value.pop("invoice_date")
    if n == 3:
        value["line_items"] = value["line_items"][:-1]
    if n == 4:
        value["line_items"][0]["quantity"] += 1
        return {"line_items.0.quantity"}
    if n == 6:
        value["invoice_number"] = "WRONG-0001"
        return {"invoice_number"}
    if n == 7:
        value["due_date"] = "2030-01-31"
        return {"due_date"}
    return set()


def with_errors(truth: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """file -> {"value": ..., "confidence": {path: c}} (see the module docstring)."""
    predictions = {}
    for n, file in enumerate(sorted(truth)):
        if n == MISSING_INDEX:
            continue
        value = copy.deepcopy(dict(truth[file]))
        wrong = _error(n, value)
        confidence: dict[str, float] = {}
        for name, item in value.items():
            if isinstance(item, list):
                for i, line in enumerate(item):
                    for column in line:
                        path = f"{name}.{i}.{column}"
                        confidence[path] = LOW if path in wrong else _confidence(path, n)
            else:
                confidence[name] = LOW if name in wrong else _confidence(name, n)
        if "currency" in value and "total" in value:
            confidence["currency"] = confidence["total"]
        predictions[file] = {"value": value, "confidence": confidence}
    return predictions


def run_outputs(predictions: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """The predictions as run outputs, as ``fieldwise.compare`` takes them."""
    return {
        file: {
            "value": p["value"],
            "metadata": {k: {"confidence": c} for k, c in p["confidence"].items()},
        }
        for file, p in predictions.items()
    }


@pytest.fixture(scope="module")
def invoices(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    root = tmp_path_factory.mktemp("imports") / "invoices"
    generate_dataset("invoices", count=12, seed=42, out_dir=root, scanned_share=0.0)
    return load_dataset(root)


@pytest.fixture(scope="module")
def truth(invoices: Dataset) -> dict[str, dict[str, Any]]:
    return {item.file: dict(item.ground_truth) for item in invoices.items}


def extra_prediction(truth: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """A prediction for a document the dataset lacks (a copy of the first one's values)."""
    first = copy.deepcopy(dict(truth[sorted(truth)[0]]))
    return {"value": first, "confidence": {"total": 0.9, "currency": 0.9}}
