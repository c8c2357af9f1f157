"""Suspected ground-truth errors: both versions confidently agree with each other, not truth."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from fieldwise.compare._spec import FieldSpec
from fieldwise.compare.score._comparators import comparator_for

__all__ = ["SUSPECT_COLUMNS", "suspected_truth_errors"]

SUSPECT_COLUMNS = (
    "item",
    "field",
    "row",
    "expected",
    "predicted_baseline",
    "predicted_candidate",
    "confidence",
)


def suspected_truth_errors(
    cells: pd.DataFrame,
    specs: Mapping[str, FieldSpec],
    baseline: str,
    candidate: str,
    *,
    min_confidence: float = 0.9,
) -> pd.DataFrame:
    """Cells both versions got ``wrong`` with the *same* value (same comparator as the field)
    and a confidence >= ``min_confidence`` in both: more likely a ground-truth error than two
    independent identical mistakes. ``confidence`` is the lower of the two."""
    keys = ["item", "field", "row"]
    cols = [*keys, "expected", "predicted", "confidence"]
    wrong = cells.loc[
        (cells["outcome"] == "wrong")
        & (cells["row"] >= 0)
        & (cells["confidence"] >= min_confidence)
    ]
    base = wrong.loc[wrong["version"] == baseline, cols]
    cand = wrong.loc[wrong["version"] == candidate, [*keys, "predicted", "confidence"]]
    both = base.merge(cand, on=keys, suffixes=("_baseline", "_candidate"))
    keep = np.zeros(len(both), dtype=bool)
    for field, idx in both.groupby("field", observed=True, sort=True).indices.items():
        res = comparator_for(specs[str(field)])(
            both["predicted_baseline"].iloc[idx], both["predicted_candidate"].iloc[idx]
        )
        keep[idx] = res.match
    out = both.loc[keep].copy()
    out["confidence"] = np.minimum(out["confidence_baseline"], out["confidence_candidate"])
    out = out.sort_values(keys, ignore_index=True)
    return out.loc[:, list(SUSPECT_COLUMNS)]
