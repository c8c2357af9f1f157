"""``benchmarks/calibrate.py``: configs renamed to read another set, and fitted models exported
to the JSON the engine reads back with the same probabilities (synthetic evidence: values
found by a label are right, by the letterhead mostly not)."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from fieldwise.service.engines.extraction.calibration import Evidence
from tests.benchmarks.modules import load


@pytest.fixture(scope="module")
def calibrate() -> ModuleType:
    for name in ("_shared", "_abstaining", "engine_accuracy"):
        load(name)  # the script imports these by bare name
    return load("calibrate")


def test_a_config_reads_another_set_under_that_sets_names(calibrate: ModuleType) -> None:
    raw = {
        "fields": [
            {"name": "issue_date", "type": "date", "labels": ["Datum"]},
            {"name": "seller_vat_id", "type": "string"},  # no counterpart in the invoices set
            {"name": "grand_total", "type": "currency", "vocabulary": "grand_total"},
        ]
    }
    renamed = calibrate._renamed(raw, "zugferd-dev", "invoices")
    assert [f["name"] for f in renamed["fields"]] == ["invoice_date", "total"]
    assert renamed["fields"][0]["labels"] == ["Datum"]
    assert calibrate._renamed(raw, "zugferd-dev", "zugferd-dev") is raw


def _examples(calibrate: ModuleType) -> list[object]:
    out = []
    for i in range(120):
        strategy = ("label", "letterhead", "scan")[i % 3]
        right = strategy != "letterhead" or i % 4 == 0
        confidence = 0.3 + (i % 7) / 10
        evidence = Evidence(strategy, "string", confidence, i % 3, 1, 1.0, False, False, i % 2 == 0)
        out.append(calibrate.Example("set v1", f"set/{i}", "name", evidence, right))
    return out


@pytest.mark.parametrize("kind", ["logistic C=1.0", "boosted depth=2 trees=100"])
def test_an_exported_model_gives_the_engine_the_fitted_probabilities(
    calibrate: ModuleType, kind: str
) -> None:
    examples = _examples(calibrate)
    x, y, _ = calibrate._matrix(examples)
    model = calibrate._models()[kind]().fit(x, y)
    params = calibrate.exported(model)
    assert calibrate._check(model, params, examples, x) < 1e-6
    p = model.predict_proba(x)[:, 1]
    letterhead = np.array([e.evidence.strategy == "letterhead" for e in examples])
    assert p[letterhead].mean() < p[~letterhead].mean()


def test_reliability_bins_count_every_value(calibrate: ModuleType) -> None:
    p = np.array([0.05, 0.15, 0.95, 1.0, 0.97])
    y = np.array([0, 1, 1, 1, 0])
    table = calibrate.reliability(p, y)
    assert [row["bin"] for row in table] == ["0.0-0.1", "0.1-0.2", "0.9-1.0"]
    assert sum(row["n"] for row in table) == 5
    assert table[-1] == {"bin": "0.9-1.0", "n": 3, "predicted": 0.973, "observed": 0.667}
