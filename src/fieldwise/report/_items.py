"""The item table and the regression/improvement lists, formatted from the (document, field)
units compare hands over (:func:`fieldwise.compare.unit_outcomes`): the same units and the same
*ok* as compare's flips, so the counts here match ``significance``.
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

from fieldwise.compare import unit_outcomes
from fieldwise.report._model import OUTCOME_CODES, Example, ItemTable

__all__ = ["Units", "format_value", "units"]

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


def units(
    cells: pd.DataFrame,
    baseline: str,
    candidate: str | None,
    document_names: Mapping[str, str],
) -> Units:
    """The item table and the flips of compare's units (:func:`fieldwise.compare.unit_outcomes`),
    formatted."""
    found = unit_outcomes(cells, baseline, candidate)
    items, fields, rows = found.items, found.fields, found.key
    n_fields = max(len(fields), 1)
    rep_b, rep_c = found.cell_baseline, found.cell_candidate
    code_b, code_c = found.code_baseline, found.code_candidate
    ok_b, ok_c = found.ok_baseline, found.ok_candidate
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
