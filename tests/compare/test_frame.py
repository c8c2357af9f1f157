"""build_frame: flattening, array fields kept whole, confidences from run metadata."""

from __future__ import annotations

import math
from typing import Any

import pytest

from fieldwise._errors import CompareError
from fieldwise.compare import build_frame, flatten


def test_flatten_nested_and_arrays() -> None:
    value = {
        "seller": {"name": "A", "address": {"city": "B"}},
        "tags": ["x", "y"],
        "items": [{"d": "p", "dims": {"w": 1}}],
    }
    assert flatten(value) == {
        "seller.name": "A",
        "seller.address.city": "B",
        "tags": ["x", "y"],
        "items": [{"d": "p", "dims.w": 1}],
    }


def test_build_frame_rows_and_confidences() -> None:
    truth: dict[str, dict[str, Any]] = {
        "doc1": {"seller": {"name": "A"}, "items": [{"d": "p"}, {"d": "q"}]},
        "doc2": {"total": 5},
    }
    predictions = {
        "v1": {
            "doc1": {
                "value": {"seller": {"name": "A"}, "items": [{"d": "p"}, {"d": "q"}], "extra": 1},
                "metadata": {
                    "seller.name": {"confidence": 0.8},
                    "items.0.d": {"confidence": 0.9},
                    "items.1.d": {"confidence": 0.6},
                },
            }
        }
    }
    frame = build_frame(truth, predictions)
    assert frame[["item", "field", "version"]].values.tolist() == [
        ["doc1", "extra", "v1"],
        ["doc1", "items", "v1"],
        ["doc1", "seller.name", "v1"],
        ["doc2", "total", "v1"],
    ]
    conf = dict(zip(frame["field"], frame["confidence"], strict=True))
    assert conf["items"] == 0.6  # the minimum over the array's cells
    assert conf["seller.name"] == 0.8
    assert math.isnan(conf["extra"])
    # doc2 has no output in v1: its field is there with no prediction
    assert frame.loc[frame["item"] == "doc2", "predicted"].tolist() == [None]


def test_prediction_without_truth_is_an_error() -> None:
    with pytest.raises(CompareError, match="'ghost' has no ground truth"):
        build_frame({"a": {"x": 1}}, {"v": {"ghost": {"value": {}, "metadata": {}}}})
