"""Paired units of one baseline and one candidate, with the cell that decides each.

A unit is one field of one document in one version; its outcome is its worst cell (a line-item
column has a cell per row). A unit is *ok* when it is correct, both_empty or absent (no cell in that
version): the definition :func:`~fieldwise.compare.stats._paired.flip_units` counts flips by, kept
here beside it so the report lists exactly the flips the tests count, and formats only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise.compare._codes import sorted_codes
from fieldwise.compare.score._outcomes import OK_OUTCOMES, OUTCOMES
from fieldwise.compare.stats._metrics import outcome_codes

__all__ = ["ABSENT", "UnitOutcomes", "unit_outcomes"]

#: The outcome code of a unit a version has no cell for (one past :data:`OUTCOMES`).
ABSENT = len(OUTCOMES)
# severity of each outcome code (higher is worse): both_empty, correct, spurious, missed, wrong
_RANK = np.array([1, 4, 3, 2, 0], dtype=np.int8)
_CODE_OF_RANK = np.argsort(_RANK).astype(np.int8)
_OK_CODES = np.array([*(OUTCOMES.index(o) for o in OK_OUTCOMES), ABSENT])


@dataclass(frozen=True)
class UnitOutcomes:
    """Every (document, field) unit with a cell in either version, sorted by item then field.

    ``key`` is ``item * len(fields) + field`` (indices into ``items`` and ``fields``);
    ``code_*`` the unit's outcome as an index into :data:`OUTCOMES` (:data:`ABSENT` when the
    version has no cell); ``cell_*`` the position in the cells of the worst cell (first row
    among equals), -1 where absent; ``ok_*`` whether the unit is ok in that version."""

    items: list[str]
    fields: list[str]
    key: npt.NDArray[np.int64]
    code_baseline: npt.NDArray[np.int8]
    code_candidate: npt.NDArray[np.int8]
    cell_baseline: npt.NDArray[np.int64]
    cell_candidate: npt.NDArray[np.int64]
    ok_baseline: npt.NDArray[np.bool_]
    ok_candidate: npt.NDArray[np.bool_]


def _worst_cells(
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


def unit_outcomes(cells: pd.DataFrame, baseline: str, candidate: str | None) -> UnitOutcomes:
    """The units of ``baseline`` and ``candidate`` (without one, the baseline's units with the
    candidate absent and as ok as the baseline)."""
    unknown = set(pd.unique(cells["outcome"]).tolist()) - set(OUTCOMES)
    if unknown:
        raise ValueError(f"cells hold an outcome outside {', '.join(OUTCOMES)}: {sorted(unknown)}")
    codes = outcome_codes(cells)
    item_code, items = sorted_codes(cells["item"])
    field_code, fields = sorted_codes(cells["field"])
    n_fields = max(len(fields), 1)
    key = item_code * n_fields + field_code
    rank = _RANK[codes]
    grids, masks = [], []
    for name in (baseline, candidate):
        grid = np.full(len(items) * n_fields, -1, dtype=np.int8)
        mask = np.zeros(len(cells), dtype=bool)
        if name is not None:
            mask = (cells["version"] == name).to_numpy(dtype=bool)
            np.maximum.at(grid, key[mask], rank[mask])
        grids.append(grid)
        masks.append(mask)
    rows = np.flatnonzero((grids[0] >= 0) | (grids[1] >= 0)).astype(np.int64)
    code_b, code_c = (
        np.where(g[rows] >= 0, _CODE_OF_RANK[g[rows]], ABSENT).astype(np.int8) for g in grids
    )
    ok_b = np.isin(code_b, _OK_CODES)
    return UnitOutcomes(
        items=items,
        fields=fields,
        key=rows,
        code_baseline=code_b,
        code_candidate=code_c,
        cell_baseline=_worst_cells(key, rank, masks[0], rows),
        cell_candidate=_worst_cells(key, rank, masks[1], rows),
        ok_baseline=ok_b,
        ok_candidate=np.isin(code_c, _OK_CODES) if candidate is not None else ok_b,
    )
