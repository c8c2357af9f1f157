"""Score every cell of the comparison frame: correct, wrong, missed, spurious or both_empty."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise._errors import CompareError
from fieldwise.compare._spec import FieldSpec, default_spec
from fieldwise.compare.score._align import ROW_COUNT_COLUMNS, align_arrays
from fieldwise.compare.score._base import Comparison
from fieldwise.compare.score._comparators import comparator_for
from fieldwise.compare.score._frame import FRAME_COLUMNS, validate_frame
from fieldwise.compare.score._threads import thread_map

__all__ = [
    "CELL_COLUMNS",
    "OK_OUTCOMES",
    "OUTCOMES",
    "PARALLEL_CELLS",
    "cell_specs",
    "outcome_codes",
    "score_cells",
]

OUTCOMES = ("correct", "wrong", "missed", "spurious", "both_empty")
#: Outcomes that need no human touch: the right value, or rightly nothing.
OK_OUTCOMES = ("correct", "both_empty")
#: Cells from which fields (or wide columns) are scored on threads side by side.
PARALLEL_CELLS = 1 << 19
CELL_COLUMNS = (
    "version",
    "item",
    "field",
    "row",
    "expected",
    "predicted",
    "confidence",
    "score",
    "outcome",
    "weight",
)


def outcome_codes(res: Comparison) -> npt.NDArray[np.int8]:
    """Each cell's index into OUTCOMES: correct 0, wrong 1, missed 2 (the prediction is
    empty), spurious 3 (the truth is), both_empty 4; by adding flags, not a select."""
    le, re_ = res.left_empty, res.right_empty
    wrong = ~(res.match & ~le & ~re_)  # 1 unless correct
    outcome: npt.NDArray[np.int8] = wrong.view(np.int8) + re_.view(np.int8)
    outcome += 2 * le.view(np.int8)
    return outcome


def cell_specs(fields: list[str], specs: Mapping[str, FieldSpec]) -> dict[str, FieldSpec]:
    """The spec of every cell field; array columns inherit ``critical`` from their array and
    fields missing from ``specs`` compare as folded strings."""
    out: dict[str, FieldSpec] = {}
    for field in fields:
        if field in specs:
            out[field] = specs[field]
            continue
        parent, sep, column = field.partition("[].")
        if sep and parent in specs and specs[parent].type == "array":
            col = specs[parent].column(column)
            out[field] = replace(col, name=field, critical=col.critical or specs[parent].critical)
        else:
            out[field] = default_spec(field)
    return out


def score_cells(
    frame: pd.DataFrame, specs: Mapping[str, FieldSpec]
) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, FieldSpec]]:
    """Compare every cell with its field's comparator.

    Returns the cells (:data:`CELL_COLUMNS`; scalar cells in the frame's row order, then the
    cells of array fields; ``version``, ``item`` and ``field`` as categoricals with sorted
    categories), the row-count table of array fields, and the spec used for each cell field.
    Not sorting a million cells keeps this fast; the summary tables are sorted.
    """
    missing = [c for c in FRAME_COLUMNS if c not in frame.columns]
    if missing:
        raise CompareError(f"comparison frame lacks column(s): {', '.join(missing)}")
    base = frame.loc[:, list(FRAME_COLUMNS)]
    # categorical keys (sorted categories): every later groupby works on integer codes
    for key in ("version", "item", "field"):
        base[key] = base[key].astype("category")
    validate_frame(base)
    arrays = sorted(f for f, s in specs.items() if s.type == "array")
    is_array = base["field"].isin(arrays)
    # no boolean take (a copy of every column) when there is no array field to set apart
    scalar = base if not is_array.any() else base.loc[~is_array]
    parts = [scalar.assign(row=np.int64(0))]
    counts = [pd.DataFrame(columns=list(ROW_COUNT_COLUMNS))]
    for name in arrays:
        rows = base.loc[base["field"] == name]
        if len(rows):
            cells, row_counts = align_arrays(rows, specs[name])
            parts.append(cells)
            counts.append(row_counts)
    cells = (
        pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0].reset_index(drop=True)
    )
    cells["expected"] = cells["expected"].astype(object)
    for key in ("version", "item", "field"):
        if not isinstance(cells[key].dtype, pd.CategoricalDtype):
            cells[key] = cells[key].astype("category")
    cells["predicted"] = cells["predicted"].astype(object)

    n = len(cells)
    outcome = np.full(n, 4, dtype=np.int8)
    score = np.zeros(n, dtype=np.float64)
    weight = np.ones(n, dtype=np.float64)
    by_field = {
        str(k): v for k, v in cells.groupby("field", observed=True, sort=True).indices.items()
    }
    resolved = cell_specs(sorted(by_field), specs)
    # the columns' own object arrays (no copy), read by every thread
    expected = cells["expected"].to_numpy(dtype=object)
    predicted = cells["predicted"].to_numpy(dtype=object)

    def compared(field: str) -> Comparison:
        # the field's cells taken on the thread that compares them, as its own Series (what
        # ``.iloc[idx]`` of the columns gives): no pandas object is shared by threads, and
        # only the fields in flight hold a copy of their values
        idx = by_field[field]
        left, right = (
            pd.Series(values[idx], index=pd.Index(idx), name=name, dtype=object, copy=False)
            for values, name in ((expected, "expected"), (predicted, "predicted"))
        )
        return comparator_for(resolved[field])(left, right)

    # fields side by side on the cores once there are enough cells to pay for the threads
    # (Arrow and numpy kernels release the GIL); results are taken in field order
    results = thread_map(compared, list(by_field), parallel=n > PARALLEL_CELLS)
    for (field, idx), res in zip(by_field.items(), results, strict=True):
        spec = resolved[field]
        outcome[idx] = outcome_codes(res)
        score[idx] = res.score
        weight[idx] = spec.weight
    cells["score"] = score
    cells["outcome"] = pd.Categorical.from_codes(outcome, categories=pd.Index(OUTCOMES))
    cells["weight"] = weight
    cells["confidence"] = cells["confidence"].astype("float64")
    row_counts = pd.concat(counts, ignore_index=True) if len(counts) > 1 else counts[0]
    row_counts = row_counts.sort_values(["version", "item", "field"], ignore_index=True)
    return cells.loc[:, list(CELL_COLUMNS)], row_counts, resolved
