"""Arrays of objects (line items): pair rows by optimal assignment, then split into cells."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from fieldwise.compare._spec import FieldSpec
from fieldwise.compare.score._comparators import comparator_for
from fieldwise.compare.score._normalize import is_empty

__all__ = ["ROW_COUNT_COLUMNS", "align_arrays", "cell_field"]

ROW_COUNT_COLUMNS = (
    "version",
    "item",
    "field",
    "expected_rows",
    "predicted_rows",
    "matched_rows",
    "prefix_rows",
    "row_count_mismatch",
)


def cell_field(array_field: str, column: str) -> str:
    """The field name of one array column's cells: ``line_items[].amount``."""
    return f"{array_field}[].{column}"


def _rows(value: Any) -> list[Mapping[str, Any]]:
    if isinstance(value, Mapping):
        return [value]
    if not isinstance(value, list | tuple) or is_empty(value):
        return []
    return [r if isinstance(r, Mapping) else {"value": r} for r in value]


def align_arrays(rows: pd.DataFrame, spec: FieldSpec) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Align the rows of one array field in every (item, version) and return its cells.

    Row similarity is the mean column score over the columns not empty on both sides (fuzzy
    columns give partial credit). ``scipy.optimize.linear_sum_assignment`` maximizes the total
    similarity, so row order does not matter; a pair with similarity 0 (nothing in common) is not
    kept. Unmatched expected rows become missed cells, unmatched predicted rows spurious cells.

    Returns the cells (frame columns plus ``row``: the expected row index, or ``-(j+1)`` for an
    unmatched predicted row ``j``) and a row-count table (:data:`ROW_COUNT_COLUMNS`;
    ``prefix_rows`` is the longest run of expected rows, from the first, that were all matched:
    a list cut short keeps its head and loses its tail).
    """
    blocks = list(
        zip(
            rows["item"],
            rows["version"],
            rows["expected"],
            rows["predicted"],
            rows["confidence"],
            strict=True,
        )
    )
    exp_rows = [_rows(b[2]) for b in blocks]
    pred_rows = [_rows(b[3]) for b in blocks]
    columns = sorted(
        {c.name for c in spec.columns} | {k for rs in exp_rows + pred_rows for r in rs for k in r}
    )
    flat_e = [r for rs in exp_rows for r in rs]
    flat_p = [r for rs in pred_rows for r in rs]
    e_off = np.cumsum([0] + [len(rs) for rs in exp_rows])
    p_off = np.cumsum([0] + [len(rs) for rs in pred_rows])
    values_e = {c: np.array([r.get(c) for r in flat_e] + [None], dtype=object) for c in columns}
    values_p = {c: np.array([r.get(c) for r in flat_p] + [None], dtype=object) for c in columns}

    # every (expected row, predicted row) pair within a block, as global row indices
    gi_parts, gj_parts = [], []
    for b in range(len(blocks)):
        ne, np_ = int(e_off[b + 1] - e_off[b]), int(p_off[b + 1] - p_off[b])
        gi_parts.append(np.repeat(np.arange(e_off[b], e_off[b + 1]), np_))
        gj_parts.append(np.tile(np.arange(p_off[b], p_off[b + 1]), ne))
    gi = np.concatenate(gi_parts) if gi_parts else np.zeros(0, dtype=np.intp)
    gj = np.concatenate(gj_parts) if gj_parts else np.zeros(0, dtype=np.intp)
    total = np.zeros(len(gi))
    counted = np.zeros(len(gi))
    for c in columns:
        if not len(gi):
            break
        res = comparator_for(spec.column(c))(pd.Series(values_e[c][gi]), pd.Series(values_p[c][gj]))
        both_empty = res.left_empty & res.right_empty
        total += np.where(both_empty, 0.0, res.score)
        counted += ~both_empty
    sim = np.divide(total, counted, out=np.ones_like(total), where=counted > 0)

    matched_i: list[int] = []
    matched_j: list[int] = []
    counts = []
    start = 0
    for b, (item, version, *_rest) in enumerate(blocks):
        ne, np_ = len(exp_rows[b]), len(pred_rows[b])
        block = sim[start : start + ne * np_].reshape(ne, np_)
        start += ne * np_
        n_matched = prefix = 0
        if ne and np_:
            from scipy.optimize import linear_sum_assignment  # on use: slow to import

            ri, ci = linear_sum_assignment(block, maximize=True)
            keep = block[ri, ci] > 0
            matched_i.extend((ri[keep] + e_off[b]).tolist())
            matched_j.extend((ci[keep] + p_off[b]).tolist())
            n_matched = int(keep.sum())
            taken = set(ri[keep].tolist())
            while prefix in taken:
                prefix += 1
        counts.append((version, item, spec.name, ne, np_, n_matched, prefix, ne != np_))

    mi, mj = np.array(matched_i, dtype=np.intp), np.array(matched_j, dtype=np.intp)
    taken_e, taken_p = np.zeros(len(flat_e), dtype=bool), np.zeros(len(flat_p), dtype=bool)
    taken_e[mi], taken_p[mj] = True, True
    lone_i, lone_j = np.flatnonzero(~taken_e), np.flatnonzero(~taken_p)
    none_e, none_p = len(flat_e), len(flat_p)  # index of the trailing None
    e_idx = np.concatenate([mi, lone_i, np.full(len(lone_j), none_e)]).astype(np.intp)
    p_idx = np.concatenate([mj, np.full(len(lone_i), none_p), lone_j]).astype(np.intp)
    block_of_e = np.searchsorted(e_off, np.arange(len(flat_e)), side="right") - 1
    block_of_p = np.searchsorted(p_off, np.arange(len(flat_p)), side="right") - 1
    block = np.concatenate([block_of_e[mi], block_of_e[lone_i], block_of_p[lone_j]]).astype(np.intp)
    row = np.concatenate(
        [
            mi - e_off[block_of_e[mi]],
            lone_i - e_off[block_of_e[lone_i]],
            -(lone_j - p_off[block_of_p[lone_j]]) - 1,
        ]
    ).astype(np.int64)
    items = rows["item"].to_numpy(dtype=object)[block]
    versions = rows["version"].to_numpy(dtype=object)[block]
    confidence = rows["confidence"].to_numpy(dtype=np.float64)[block]
    parts = [
        pd.DataFrame(
            {
                "item": items,
                "field": cell_field(spec.name, c),
                "version": versions,
                "row": row,
                "expected": values_e[c][e_idx],
                "predicted": values_p[c][p_idx],
                "confidence": confidence,
            }
        )
        for c in columns
    ]
    cells = (
        pd.concat(parts, ignore_index=True)
        if parts
        else pd.DataFrame(
            columns=["item", "field", "version", "row", "expected", "predicted", "confidence"]
        )
    )
    return cells, pd.DataFrame.from_records(counts, columns=list(ROW_COUNT_COLUMNS))
