"""Per-field bootstrap intervals of the cell-accuracy delta (the statistics give the
overall one; the report shows these beside each field).

Resampling documents for one field only matters through each document's tuple
(ok cells and cells, baseline and candidate). Drawing n documents uniformly with replacement is
the same as drawing counts of each distinct tuple from a multinomial with their frequencies, so
each field costs O(resamples x distinct tuples) instead of O(resamples x documents).
"""

from __future__ import annotations

from typing import cast

import numpy as np
import pandas as pd

from fieldwise.compare._codes import sorted_codes

#: The outcomes a cell counts as right for cell accuracy.
_OK = ("correct", "both_empty")

__all__ = ["field_intervals"]


def field_intervals(
    cells: pd.DataFrame,
    baseline: str,
    candidate: str,
    *,
    seed: int,
    n_resamples: int,
    confidence: float,
) -> dict[str, tuple[float, float]]:
    """Field -> percentile interval (low, high) of candidate minus baseline cell accuracy."""
    field_code, fields = sorted_codes(cells["field"])
    item_code, _ = sorted_codes(cells["item"])
    versions = cells["version"]
    frame = pd.DataFrame(
        {
            "field": field_code,
            "item": item_code,
            "cand": (versions == candidate).to_numpy(dtype=bool),
            "ok": cells["outcome"].isin(_OK).to_numpy(dtype=np.int64),
            "n": np.ones(len(cells), dtype=np.int64),
        }
    )
    frame = frame.loc[versions.isin([baseline, candidate]).to_numpy(dtype=bool)]
    per_doc = frame.groupby(["field", "item", "cand"], sort=True)[["ok", "n"]].sum()
    columns = pd.MultiIndex.from_tuples([("ok", False), ("n", False), ("ok", True), ("n", True)])
    wide = pd.DataFrame(per_doc.unstack("cand", fill_value=0)).reindex(
        columns=columns, fill_value=0
    )
    wide.columns = pd.Index(["ok_b", "n_b", "ok_c", "n_c"])
    rng = np.random.default_rng(seed)
    tail = (1 - confidence) / 2 * 100
    out: dict[str, tuple[float, float]] = {}
    for field, group in wide.groupby(level="field", sort=True):
        patterns = group.value_counts(sort=False)
        values = np.array(patterns.index.tolist(), dtype=np.float64)  # (K, 4)
        counts = patterns.to_numpy(dtype=np.float64)
        draws = rng.multinomial(int(counts.sum()), counts / counts.sum(), size=n_resamples)
        sums = draws @ values  # (B, 4)
        with np.errstate(invalid="ignore", divide="ignore"):
            acc_b = np.where(sums[:, 1] > 0, sums[:, 0] / sums[:, 1], 1.0)
            acc_c = np.where(sums[:, 3] > 0, sums[:, 2] / sums[:, 3], 1.0)
        low, high = np.percentile(acc_c - acc_b, [tail, 100 - tail])
        out[str(fields[cast("int", field)])] = (float(low), float(high))
    return out
