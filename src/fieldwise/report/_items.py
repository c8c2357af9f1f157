"""The (document, field) units behind the item table and the regression/improvement lists.

A unit is one field of one document in one version; its outcome is its worst cell (a line-item
column has a cell per row). A unit is *ok* when correct, both_empty or absent: the same
definition as compare's flips, so the counts here match ``significance``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise.compare import sorted_codes
from fieldwise.report._model import OUTCOME_CODES, Example, ItemTable

__all__ = ["Units", "format_value", "outcome_codes", "sorted_codes", "units"]

_ABSENT = 5
# severity of each outcome code (higher is worse) and back
_RANK = np.array([1, 4, 3, 2, 0], dtype=np.int8)
_CODE_OF_RANK = np.array([4, 0, 3, 2, 1], dtype=np.int8)
_MAX_CHARS = 160


def format_value(value: Any) -> str:
    """A cell value as short, deterministic text ("" for nothing)."""
    if value is None:
        return ""
    if isinstance(value, float | np.floating):
        return "" if math.isnan(value) else format(float(value), ".12g")
    if isinstance(value, bool | np.bool_):
        return "true" if value else "false"
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, str):
        text = value
    else:
        text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    text = " ".join(text.split())
    return text if len(text) <= _MAX_CHARS else text[: _MAX_CHARS - 1] + "…"


@dataclass(frozen=True)
class Units:
    """The item table plus every flipped unit as an :class:`Example` (unsorted, unlimited)."""

    table: ItemTable
    regressions: tuple[Example, ...]
    improvements: tuple[Example, ...]


def outcome_codes(outcome: pd.Series) -> npt.NDArray[np.int8]:
    """Codes of :data:`OUTCOME_CODES` for each cell's outcome."""
    codes, uniques = pd.factorize(outcome)
    lookup = np.array([OUTCOME_CODES.index(str(u)) for u in uniques], dtype=np.int8)
    if len(uniques) and lookup.max() > 4:
        raise ValueError("cells hold an unknown outcome")
    return lookup[codes]


def _representatives(
    key: npt.NDArray[np.int64],
    rank: npt.NDArray[np.int8],
    mask: npt.NDArray[np.bool_],
    rows: npt.NDArray[np.int64],
) -> npt.NDArray[np.int64]:
    """For each key of ``rows``, the position of the worst cell of that unit among ``mask``
    (first row among equals), or -1 where the unit has no such cell; vectorized, because a
    million units each need one."""
    pos = np.flatnonzero(mask)
    order = np.lexsort((-rank[pos].astype(np.int16), key[pos]))
    pos, k = pos[order], key[pos][order]
    first = np.r_[True, k[1:] != k[:-1]] if len(k) else np.zeros(0, dtype=bool)
    keys, worst = k[first], pos[first]
    at = np.minimum(np.searchsorted(keys, rows), max(len(keys) - 1, 0))
    found = (keys[at] == rows) if len(keys) else np.zeros(len(rows), dtype=bool)
    return np.where(found, worst[at] if len(keys) else -1, -1).astype(np.int64)


def units(
    cells: pd.DataFrame,
    baseline: str,
    candidate: str | None,
    document_names: Mapping[str, str],
) -> Units:
    """Reduce scored cells to (document, field) units for both versions."""
    item_code, items = sorted_codes(cells["item"])
    field_code, fields = sorted_codes(cells["field"])
    n_fields = max(len(fields), 1)
    key = item_code * n_fields + field_code
    rank = _RANK[outcome_codes(cells["outcome"])]
    size = len(items) * n_fields

    grids, masks = [], []
    for name in (baseline, candidate):
        grid = np.full(size, -1, dtype=np.int8)
        mask = np.zeros(len(cells), dtype=bool)
        if name is not None:
            mask = (cells["version"] == name).to_numpy(dtype=bool)
            np.maximum.at(grid, key[mask], rank[mask])
        grids.append(grid)
        masks.append(mask)
    present = (grids[0] >= 0) | (grids[1] >= 0)
    rows = np.flatnonzero(present)
    rep_b, rep_c = (_representatives(key, rank, m, rows) for m in masks)
    code_b = np.where(grids[0][rows] >= 0, _CODE_OF_RANK[grids[0][rows]], _ABSENT)
    code_c = np.where(grids[1][rows] >= 0, _CODE_OF_RANK[grids[1][rows]], _ABSENT)
    ok_b = np.isin(code_b, (0, 4, _ABSENT))
    ok_c = np.isin(code_c, (0, 4, _ABSENT)) if candidate is not None else ok_b
    offsets = np.searchsorted(rows // n_fields, np.arange(len(items) + 1))

    names = [document_names.get(i, i) for i in items]
    expected_col, predicted_col = cells["expected"].to_numpy(), cells["predicted"].to_numpy()
    memo: dict[tuple[type, Any], str] = {}

    def fmt(value: Any) -> str:
        # the same few values repeat across a million cells; lists are unhashable
        try:
            key = (type(value), value)
            if key not in memo:
                memo[key] = format_value(value)
            return memo[key]
        except TypeError:
            return format_value(value)

    def texts(column: Any, positions: npt.NDArray[np.int64]) -> list[str]:
        return [fmt(column[p]) if p >= 0 else "" for p in positions.tolist()]

    # every unit keeps its values (items.parquet has them even where both versions are
    # right); only the flips become examples
    expected_of = texts(expected_col, np.where(rep_b >= 0, rep_b, rep_c))
    base_of, cand_of = texts(predicted_col, rep_b), texts(predicted_col, rep_c)
    values = list(zip(range(len(rows)), expected_of, base_of, cand_of, strict=True))
    regressions: list[Example] = []
    improvements: list[Example] = []
    for r in np.flatnonzero(ok_b != ok_c).tolist():
        k, expected, vb, vc = int(rows[r]), expected_of[r], base_of[r], cand_of[r]
        d, f = divmod(k, n_fields)
        example = Example(
            field=fields[f],
            item=items[d],
            document=names[d],
            expected=expected,
            baseline=vb,
            candidate=vc,
            baseline_outcome=OUTCOME_CODES[int(code_b[r])],
            candidate_outcome=OUTCOME_CODES[int(code_c[r])],
        )
        (regressions if ok_b[r] else improvements).append(example)
    table = ItemTable(
        documents=tuple(names),
        fields=tuple(fields),
        offsets=tuple(offsets.tolist()),
        field=tuple((rows % n_fields).tolist()),
        code=tuple((code_b.astype(np.int64) * 6 + code_c).tolist()),
        values=tuple(values),
    )
    return Units(table, tuple(regressions), tuple(improvements))
