"""Wide DataFrames go column by column (``compare._columnwise``): every frame of the result
must be what the general path (nested mappings, then ``build_frame``) gives for the same input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import fieldwise
from fieldwise.compare import build_frame, score_cells
from fieldwise.compare.score._columnwise import wide_columns
from fieldwise.compare.score._inputs import as_outputs, as_truth

FIELDS = {
    "name": {"type": "text", "threshold": 0.8},
    "code": {"type": "string", "ignore_punctuation": True},
    "total": {"type": "currency"},
    "count": {"type": "number", "atol": 0.5},
    "day": {"type": "date", "date_order": "DMY"},
    "paid": {"type": "boolean"},
    "kind": {"type": "enum", "values": ["a", "b"]},
}


def _frames(seed: int) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    rng = np.random.default_rng(seed)
    n = 60
    docs = [f"doc-{i}" for i in rng.permutation(n)]
    truth = pd.DataFrame(
        {
            "document": docs,
            "name": rng.choice(["Acme GmbH", "Nordwind AG", None], n),
            "code": rng.choice(["A-1", "B-2", "C 3"], n),
            "total": np.where(rng.random(n) < 0.2, np.nan, np.round(rng.uniform(0, 99, n), 2)),
            "count": rng.integers(0, 5, n),
            "day": rng.choice(["2024-01-05", "05.01.2024", "March 3, 2021"], n),
            "paid": rng.random(n) < 0.5,
            "kind": pd.array(rng.choice(["a", "B", None], n), dtype="string"),
            "only_truth": rng.choice(["x", "y"], n),
        }
    )
    predictions = {}
    for version in ("v2", "v1"):  # not in sorted order on purpose
        pred = truth.sample(frac=0.8, random_state=seed).drop(columns=["only_truth"])
        pred["name"] = [
            None
            if rng.random() < 0.1
            else (v if isinstance(v, str) else "Acme") + "x" * (rng.random() < 0.3)
            for v in pred["name"]
        ]
        pred["total"] = pred["total"].astype(object)
        pred.loc[pred.index[:5], "total"] = ["€ 1,50", None, np.float64(3.0), "n/a", 7]
        pred["count"] = pred["count"] + rng.integers(0, 2, len(pred))
        pred["paid"] = np.where(rng.random(len(pred)) < 0.2, "yes", pred["paid"]).astype(object)
        pred["extra"] = rng.choice([1.5, np.nan], len(pred))
        predictions[version] = pred
    return truth, predictions


def _general(truth: pd.DataFrame, predictions: dict[str, pd.DataFrame]) -> pd.DataFrame:
    return build_frame(as_truth(truth), {v: as_outputs(p) for v, p in predictions.items()})


def _cells(truth: pd.DataFrame, predictions: dict[str, Any]) -> pd.DataFrame:
    """The cells of the column-wise path (every version a candidate of the first)."""
    versions = sorted(predictions)
    result = fieldwise.compare(truth, predictions, baseline=versions[0])
    return result.cells


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_wide_frames_give_the_general_paths_cells(seed: int) -> None:
    truth, predictions = _frames(seed)
    assert wide_columns(truth, predictions) is not None  # the column-wise path is taken
    fast = _cells(truth, predictions)
    slow, _, _ = score_cells(_general(truth, predictions), {})
    pd.testing.assert_frame_equal(fast, slow)
    # the same plain Python values, type for type (an int stays an int, a bool a bool)
    for column in ("expected", "predicted"):
        assert [type(v) for v in fast[column]] == [type(v) for v in slow[column]]


def test_unusual_frames_take_the_general_path() -> None:
    truth, predictions = _frames(0)
    dotted = truth.rename(columns={"name": "seller.name"})
    assert wide_columns(dotted, predictions) is None
    nested = truth.assign(code=[{"a": 1}] * len(truth))
    assert wide_columns(nested, predictions) is None
    long = pd.DataFrame({"document": ["d"], "field": ["f"], "value": [1]})
    assert wide_columns(long, predictions) is None
    stranger = predictions["v1"].assign(document=[f"new-{i}" for i in range(len(truth) * 4 // 5)])
    assert wide_columns(truth, {"v1": stranger}) is None
    dates = truth.assign(day=pd.to_datetime(["2024-01-05"] * len(truth)))
    assert wide_columns(dates, predictions) is None


def test_a_version_without_fields_matches_the_general_path() -> None:
    truth, predictions = _frames(1)
    bare = {"v1": predictions["v1"][["document"]], "v2": predictions["v2"]}
    assert wide_columns(truth, bare) is not None
    slow, _, _ = score_cells(_general(truth, bare), {})
    pd.testing.assert_frame_equal(_cells(truth, bare), slow)
    only_ids = truth[["document"]]
    assert wide_columns(only_ids, {"v1": only_ids}) is None  # no cell at all: general path
