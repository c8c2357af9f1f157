"""Paired (document, field) units of one baseline and one candidate: the one definition of a
unit's outcome, of *ok* and of a flip.

A unit is one field of one document in one version; its outcome is its worst cell (a line-item
column has a cell per row). A unit is *ok* when that outcome is correct or both_empty, or when
the version has no cell for it (absent: nothing expected, nothing predicted). The statistics'
flip counts (:func:`~fieldwise.compare.stats._sufficient.partition_statistics`), the flips
frame (:func:`flip_units`) and the report's item table (:func:`unit_outcomes`) all read the
units of :func:`pair_units`, so the report lists exactly the flips the tests count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise.compare._codes import CodedCells
from fieldwise.compare.score._outcomes import OK_OUTCOMES, OUTCOMES

__all__ = [
    "ABSENT",
    "TRANSITIONS",
    "UnitOutcomes",
    "flip_units",
    "pair_units",
    "transition_codes",
    "unit_ok",
    "unit_outcomes",
]

TRANSITIONS = ("both_right", "regressed", "fixed", "both_wrong")
#: The outcome code of a unit a version has no cell for (one past :data:`OUTCOMES`).
ABSENT = len(OUTCOMES)
# severity of each outcome code (higher is worse): both_empty, correct, spurious, missed, wrong;
# the last entry is code -1 (no outcome), which is not ok: as bad as wrong
_RANK = np.array([1, 4, 3, 2, 0, 4], dtype=np.int8)
_CODE_OF_RANK = np.argsort(_RANK[:-1]).astype(np.int8)
_OK_CODES = np.array([*(OUTCOMES.index(o) for o in OK_OUTCOMES), ABSENT])


def _unit_grid(c: CodedCells, name: str | None) -> npt.NDArray[np.int8]:
    """The rank of each unit's worst cell in version ``name`` (-1: no cell), per
    ``item * len(fields) + field``."""
    n_fields = max(len(c.fields), 1)
    grid = np.full(len(c.items) * n_fields, -1, dtype=np.int8)
    for b in c.of_version(c.code_of(name)):
        key, rank = b.item * n_fields + b.field, _RANK[b.outcome]
        if b.column:  # each unit once: its one cell is its worst
            grid[key] = rank
        else:
            np.maximum.at(grid, key, rank)
    return grid


def pair_units(
    c: CodedCells, baseline: str, candidate: str | None
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """Every unit with a cell in either version, as ``item * len(fields) + field`` (sorted),
    and its outcome code in the baseline and in the candidate (:data:`ABSENT` without a cell
    there; every unit is absent in a ``candidate`` of ``None``)."""
    grids = [_unit_grid(c, name) for name in (baseline, candidate)]
    rows = np.flatnonzero((grids[0] >= 0) | (grids[1] >= 0)).astype(np.int64)
    code_b, code_c = (
        np.where(g[rows] >= 0, _CODE_OF_RANK[g[rows]], ABSENT).astype(np.int8) for g in grids
    )
    return rows, code_b, code_c


def unit_ok(codes: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
    """Whether each unit outcome code is ok (correct, both_empty or absent)."""
    return np.isin(codes, _OK_CODES)


def transition_codes(
    ok_baseline: npt.NDArray[np.bool_], ok_candidate: npt.NDArray[np.bool_]
) -> npt.NDArray[np.int8]:
    """Each unit's index into :data:`TRANSITIONS`: both_right, regressed (ok -> not ok), fixed
    (not ok -> ok) or both_wrong."""
    b, c = ok_baseline, ok_candidate
    return np.select([b & c, b & ~c, ~b & c], [0, 1, 2], default=3).astype(np.int8)


def flip_units(cells: pd.DataFrame, baseline: str, candidate: str) -> pd.DataFrame:
    """One row per (field, item) unit of the pair: ``ok_baseline``, ``ok_candidate`` and the
    ``transition`` (:data:`TRANSITIONS`); sorted by field, then item."""
    k = CodedCells.of(cells)
    rows, code_b, code_c = pair_units(k, baseline, candidate)
    n_fields = max(len(k.fields), 1)
    item, field = rows // n_fields, rows % n_fields
    order = np.lexsort((item, field))
    item, field = item[order], field[order]
    ok_b, ok_c = unit_ok(code_b[order]), unit_ok(code_c[order])
    return pd.DataFrame(
        {
            "field": pd.Categorical.from_codes(field, categories=pd.Index(k.fields)),
            "item": pd.Categorical.from_codes(item, categories=pd.Index(k.items)),
            "ok_baseline": ok_b,
            "ok_candidate": ok_c,
            "transition": pd.Categorical.from_codes(
                transition_codes(ok_b, ok_c), categories=pd.Index(TRANSITIONS)
            ),
        }
    )


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
    c: CodedCells, name: str | None, rows: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """For each key of ``rows``, the position in the cells of the worst cell of that unit in
    version ``name`` (first row among equals), or -1 where the unit has no such cell;
    vectorized, because a million units each need one."""
    found_blocks = c.of_version(c.code_of(name))
    if not found_blocks:
        return np.full(len(rows), -1, dtype=np.int64)
    (b,) = found_blocks  # long cells: one block per version
    assert b.position is not None
    key = b.item * max(len(c.fields), 1) + b.field
    order = np.lexsort((-_RANK[b.outcome].astype(np.int16), key))
    pos, k = b.position[order], key[order]
    first = np.r_[True, k[1:] != k[:-1]] if len(k) else np.zeros(0, dtype=bool)
    keys, worst = k[first], pos[first]
    at = np.minimum(np.searchsorted(keys, rows), max(len(keys) - 1, 0))
    found = (keys[at] == rows) if len(keys) else np.zeros(len(rows), dtype=bool)
    return np.where(found, worst[at] if len(keys) else -1, -1).astype(np.int64)


def unit_outcomes(cells: pd.DataFrame, baseline: str, candidate: str | None) -> UnitOutcomes:
    """The units of ``baseline`` and ``candidate`` with their worst cells (without a
    candidate, the baseline's units with the candidate absent and as ok as the baseline)."""
    unknown = set(pd.unique(cells["outcome"]).tolist()) - set(OUTCOMES)
    if unknown:
        raise ValueError(f"cells hold an outcome outside {', '.join(OUTCOMES)}: {sorted(unknown)}")
    k = CodedCells.of(cells)
    rows, code_b, code_c = pair_units(k, baseline, candidate)
    ok_b = unit_ok(code_b)
    return UnitOutcomes(
        items=[str(i) for i in k.items],
        fields=[str(f) for f in k.fields],
        key=rows,
        code_baseline=code_b,
        code_candidate=code_c,
        cell_baseline=_worst_cells(k, baseline, rows),
        cell_candidate=_worst_cells(k, candidate, rows),
        ok_baseline=ok_b,
        ok_candidate=unit_ok(code_c) if candidate is not None else ok_b,
    )
