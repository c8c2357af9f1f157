"""Metrics from outcome counts.

Field "f" has 4 correct, 1 wrong, 2 missed, 1 spurious and 2 both_empty cells (10 cells):
precision = 4 / (4 + 1 + 1) = 2/3, recall = 4 / (4 + 1 + 2) = 4/7, F1 = 8/13,
accuracy = (4 + 2) / 10 = 0.6, support = 4 + 1 + 2 = 7.
Field "g" (weight 3) has 1 correct and 1 wrong: overall accuracy = (6 + 3) / (10 + 6) = 9/16.
"""

from __future__ import annotations

import pandas as pd
import pytest

from fieldwise.compare import compare, outcome_metrics, parse_field_specs
from fieldwise.compare.score._frame import FRAME_COLUMNS

ROWS = (
    [("c", "x", "x")] * 4
    + [("w", "x", "y")]
    + [("m", "x", None)] * 2
    + [("s", None, "y")]
    + [("b", None, None)] * 2
)


def make_frame() -> pd.DataFrame:
    records = [(f"d{i}", "f", "v", e, p, None) for i, (_, e, p) in enumerate(ROWS)]
    records += [("d0", "g", "v", "a", "a", None), ("d1", "g", "v", "a", "b", None)]
    frame = pd.DataFrame(records, columns=list(FRAME_COLUMNS))
    frame[["expected", "predicted"]] = frame[["expected", "predicted"]].astype(object)
    return frame


def test_outcome_metrics_by_hand() -> None:
    m = outcome_metrics({"correct": 4, "wrong": 1, "missed": 2, "spurious": 1, "both_empty": 2})
    assert m == pytest.approx(
        {
            "field_accuracy": 4 / 7,  # correct / expected (correct + wrong + missed)
            "strict_accuracy": 4 / 8,  # spurious counted too
            "accuracy": 0.6,
            "precision": 2 / 3,
            "recall": 4 / 7,
            "f1": 8 / 13,
        }
    )


def test_no_predictions_gives_zero_precision() -> None:
    m = outcome_metrics({"missed": 3})
    assert m == {
        "field_accuracy": 0.0,
        "strict_accuracy": 0.0,
        "accuracy": 0.0,
        "precision": 0.0,
        "recall": 0.0,
        "f1": 0.0,
    }


def test_field_and_overall_tables() -> None:
    specs = parse_field_specs({"g": {"type": "string", "weight": 3}})
    result = compare(make_frame(), specs, baseline="v")
    f = result.fields.set_index("field").loc["f"]
    assert (f["correct"], f["wrong"], f["missed"], f["spurious"], f["both_empty"]) == (
        4,
        1,
        2,
        1,
        2,
    )
    assert f["support"] == 7
    assert f["mean_score"] == pytest.approx(4 / 8)  # both_empty cells carry no score
    assert f["precision"] == pytest.approx(2 / 3)
    assert f["f1"] == pytest.approx(8 / 13)
    assert result.accuracy_baseline == pytest.approx(9 / 16)
    assert type(result.accuracy_baseline) is float
    overall = result.overall.iloc[0]
    # all fields correct: d0 (f and g correct), d2, d3 (f correct), d8, d9 (f both empty);
    # d1 has g wrong
    assert overall["documents"] == 10
    assert overall["all_fields_correct_rate"] == pytest.approx(0.5)
