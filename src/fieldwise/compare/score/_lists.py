"""List fields (arrays of objects, e.g. line items): how many rows each version found.

Cell figures alone hide a list cut short: the rows a version no longer emits become missed
cells, and when it used to get those rows wrong anyway its cell accuracy does not fall. So per
list field and version (from the row-count table of :func:`~fieldwise.compare.align_arrays`):

- ``row_recall`` = matched rows / expected rows (a row is matched when optimal assignment paired
  it with a predicted row that has something in common with it);
- ``cardinality_error`` = mean over documents of |predicted rows - expected rows|;
- ``truncation_prefix`` = rows in the longest matched prefix / expected rows (1.0 when every
  list is found from its first row on; a version that drops the last rows scores below 1);
- ``short_documents`` = documents where some expected row was not matched.

Between two versions the paired unit is one document's list: *complete* when every expected row was
matched. The row tests (reduced from the statistics, :mod:`~fieldwise.compare.stats._reduce`) count
lists that became incomplete (regressed) or complete (fixed) and test them with the exact McNemar
test, like the field flips.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["LIST_COLUMNS", "ROW_TEST_COLUMNS", "list_metrics"]

LIST_COLUMNS = (
    "version",
    "field",
    "documents",
    "expected_rows",
    "predicted_rows",
    "matched_rows",
    "row_recall",
    "cardinality_error",
    "truncation_prefix",
    "short_documents",
)
ROW_TEST_COLUMNS = (
    "candidate",
    "field",
    "documents",
    "row_recall_baseline",
    "row_recall_candidate",
    "regressed",
    "fixed",
    "p_value",
)


def list_metrics(row_counts: pd.DataFrame) -> pd.DataFrame:
    """One row per (version, list field): :data:`LIST_COLUMNS` (see the module docstring)."""
    if row_counts.empty:
        return pd.DataFrame(columns=list(LIST_COLUMNS))
    frame = row_counts.assign(
        gap=(row_counts["predicted_rows"] - row_counts["expected_rows"]).abs(),
        short=row_counts["matched_rows"] < row_counts["expected_rows"],
    )
    grouped = frame.groupby(["version", "field"], observed=True, sort=True)
    out = grouped.agg(
        documents=("item", "size"),
        expected_rows=("expected_rows", "sum"),
        predicted_rows=("predicted_rows", "sum"),
        matched_rows=("matched_rows", "sum"),
        prefix_rows=("prefix_rows", "sum"),
        cardinality_error=("gap", "mean"),
        short_documents=("short", "sum"),
    ).reset_index()
    expected = out["expected_rows"].to_numpy(dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        out["row_recall"] = np.where(expected > 0, out["matched_rows"] / expected, np.nan)
        out["truncation_prefix"] = np.where(expected > 0, out["prefix_rows"] / expected, np.nan)
    for col in ("documents", "expected_rows", "predicted_rows", "matched_rows", "short_documents"):
        out[col] = out[col].astype(np.int64)
    out["cardinality_error"] = out["cardinality_error"].astype(np.float64)
    return out.loc[:, list(LIST_COLUMNS)]
