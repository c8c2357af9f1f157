"""``abstain_unlikely``: leave a value out when its calibrated P(right) is low.

Generated text invoices: a letterhead (a shop name over its street) above an invoice whose tax,
net and total add up (net + tax = total: the consistency check confirms them), a printed date
and two references under the same label. The shipped model (fitted on the tune sets by
``benchmarks/calibrate.py``) gives a name found only by the letterhead strategy a low P(right)
and an amount the equation confirms a high one.
"""

from __future__ import annotations

import json
import math
from importlib import resources
from typing import Any

import pytest

from fieldwise._errors import ConfigError
from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.extraction.calibration import (
    Calibration,
    Evidence,
    feature_names,
    features,
    load_calibration,
)
from fieldwise.service.engines.parsing import parse_document

FIELDS = [
    {"name": "seller", "type": "string", "strategy": "letterhead"},
    {"name": "tax", "type": "currency", "vocabulary": "tax_total"},
    {"name": "net", "type": "currency", "vocabulary": "net_total"},
    {"name": "total", "type": "currency", "vocabulary": "grand_total"},
    {"name": "date", "type": "date"},
]
LINES = (
    "Northwind Trading",
    "12 Harbour Road",
    "",
    "INVOICE 2041",
    "Printed 03/04/2024",
    "",
    "Subtotal                    1,000.00",
    "VAT            1,000.00     19 %       190.00",
    "Total                       1,190.00",
)


def _run(calibration: Calibration | None = None, **top: Any) -> dict[str, Any]:
    config = validate_config({"date_order": "DMY", **top, "fields": FIELDS})
    doc = parse_document(("\n".join(LINES) + "\n").encode(), filename="invoice.txt")
    return extract(doc, config, calibration=calibration)


def test_a_value_found_only_by_a_weak_strategy_is_left_out_a_confirmed_one_kept() -> None:
    plain = _run()["value"]
    assert plain["seller"] == "Northwind Trading"  # without the option it is given
    out = _run(abstain_unlikely=0.5)
    assert "seller" not in out["value"]
    assert out["value"]["tax"] == 190.0
    tax = out["metadata"]["tax"]
    assert tax["p_right"] >= 0.9
    assert tax["evidence"]["strategy"] == "consistent"  # 1,000 + 190 = 1,190 chose it


def test_every_value_reports_its_probability_and_evidence_at_zero() -> None:
    out = _run(abstain_unlikely=0.0)
    assert set(out["value"]) == {"seller", "tax", "net", "total", "date"}
    seller = out["metadata"]["seller"]
    assert seller["p_right"] < 0.5
    assert seller["evidence"] == {
        "strategy": "letterhead",
        "candidates": 0,
        "values": 0,
        "margin": 1.0,
        "doubted": False,
        "has_role": False,
        "scanned": False,
    }
    assert out["metadata"]["date"]["evidence"]["strategy"] == "scan"


def test_the_threshold_applies_to_the_given_model() -> None:
    # P = sigmoid(20 x confidence - 10): above one half exactly when the raw confidence is
    # above 0.5; the scanned date (0.28) goes, the labelled total (0.97) stays
    steep = Calibration({"confidence": 20.0}, -10.0)
    out = _run(steep, abstain_unlikely=0.5)
    assert "date" not in out["value"]
    assert out["value"]["total"] == 1190.0
    assert out["metadata"]["total"]["p_right"] == pytest.approx(1 / (1 + math.exp(-9.4)), 1e-3)


def test_off_by_default_and_with_null_no_probability_is_reported() -> None:
    for out in (_run(), _run(abstain_unlikely=None)):
        assert all("p_right" not in meta for meta in out["metadata"].values())
    assert validate_config({"fields": FIELDS}).abstain_unlikely is None


@pytest.mark.parametrize("bad", [1.5, -0.1, "high", True])
def test_a_bad_abstain_unlikely_is_refused_by_name(bad: Any) -> None:
    with pytest.raises(ConfigError, match="abstain_unlikely"):
        validate_config({"abstain_unlikely": bad, "fields": FIELDS})


def test_the_shipped_model_loads_and_records_how_it_was_fitted() -> None:
    load_calibration()  # refuses a feature the engine does not compute
    name = "calibration.json"
    raw = json.loads(
        resources.files("fieldwise.service.engines.extraction").joinpath(name).read_text()
    )
    fitted = raw["fitted"]
    assert fitted["command"].startswith("python benchmarks/calibrate.py")
    assert fitted["examples"] > fitted["wrong"] > 0
    # fitted on tune sets only: no run reads a judge set of benchmarks/real/protocol.toml
    read = {run.split()[0] for run in fitted["runs"]}
    assert read
    assert not read & {"einvoice-layouts-dev", "parsee-invoices-dev"}


def test_a_model_naming_an_unknown_feature_is_refused() -> None:
    with pytest.raises(ConfigError, match="unknown features"):
        Calibration.from_json({"weights": {"vendor_is_acme": 1.0}, "intercept": 0.0})
    with pytest.raises(ConfigError, match="weights"):
        Calibration.from_json({"weights": [1.0], "intercept": 0.0})


def test_feature_names_follow_the_order_features_computes() -> None:
    names = feature_names()
    assert len(names) == len(set(names))
    assert set(load_calibration().weights) <= set(names)
    scanned_date = Evidence("scan", "date", 0.3, 0, 0, 1.0, False, False, True)
    given = features(scanned_date)
    assert list(given) == names
    assert (given["confidence|scan"], given["scanned|scan"]) == (0.3, 1.0)
    assert (given["confidence|label"], given["type=date"]) == (0.0, 1.0)


def test_a_boosted_model_reads_its_trees() -> None:
    # one stump: a value found by the letterhead strategy adds -4, any other +4
    stump = {
        "feature": ["strategy=letterhead", "", ""],
        "threshold": [0.5, -2.0, -2.0],
        "left": [1, -1, -1],
        "right": [2, -1, -1],
        "value": [0.0, 4.0, -4.0],
    }
    model = Calibration.from_json({"intercept": 0.0, "trees": [stump]})
    out = _run(model, abstain_unlikely=0.5)
    assert "seller" not in out["value"]
    assert out["metadata"]["tax"]["p_right"] == pytest.approx(1 / (1 + math.exp(-4.0)), 1e-3)
    with pytest.raises(ConfigError, match="differ in length"):
        Calibration.from_json({"intercept": 0.0, "trees": [{**stump, "value": [0.0]}]})
    with pytest.raises(ConfigError, match="unknown features"):
        Calibration.from_json({"intercept": 0.0, "trees": [{**stump, "feature": ["x", "", ""]}]})
