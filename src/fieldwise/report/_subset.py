"""Keep the HTML bounded: past a size, it embeds the top disagreements per field, and every
unit goes to ``items.parquet`` beside it.

A unit is one (document, field); its flip is "regressed", "fixed", "both_wrong" or
"both_right" (ok = correct, both empty or absent, as in compare's flips).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise.report._model import OUTCOME_CODES, ItemTable

__all__ = ["FLIPS", "HTML_UNITS", "TOP_K", "bounded", "flips", "items_frame"]

#: up to this many units the HTML holds every one of them
HTML_UNITS = 20_000
#: past it, the disagreements kept per field (regressed first, then fixed, then both wrong)
TOP_K = 200
FLIPS = ("both_right", "regressed", "fixed", "both_wrong")
_OK = np.array([c in ("correct", "both_empty", "absent") for c in OUTCOME_CODES])


def flips(table: ItemTable) -> npt.NDArray[np.int8]:
    """Index into :data:`FLIPS` for every unit of ``table``."""
    code = np.asarray(table.code, dtype=np.int64)
    ok_b, ok_c = _OK[code // 6], _OK[code % 6]
    out = np.where(ok_b & ok_c, 0, np.where(ok_b, 1, np.where(ok_c, 2, 3)))
    return out.astype(np.int8)


def bounded(table: ItemTable, limit: int = HTML_UNITS, k: int = TOP_K) -> ItemTable:
    """``table`` itself when it has at most ``limit`` units; otherwise only the first ``k``
    disagreements of each field (regressed, then fixed, then both wrong; by document)."""
    n = len(table.code)
    if n <= limit:
        return table
    flip = flips(table)
    field = np.asarray(table.field, dtype=np.int64)
    priority = np.array([9, 0, 1, 2], dtype=np.int64)[flip]
    order = np.lexsort((np.arange(n), priority, field))
    order = order[priority[order] < 9]
    f_sorted = field[order]
    starts = np.r_[0, np.flatnonzero(f_sorted[1:] != f_sorted[:-1]) + 1]
    rank = np.arange(len(order)) - np.repeat(starts, np.diff(np.r_[starts, len(order)]))
    keep = np.sort(order[rank < k])
    new_index = {int(r): i for i, r in enumerate(keep.tolist())}
    offsets = np.asarray(table.offsets, dtype=np.int64)
    doc_of = np.searchsorted(offsets, keep, side="right") - 1
    used = np.unique(doc_of)
    remap = np.searchsorted(used, doc_of)
    new_offsets = np.searchsorted(remap, np.arange(len(used) + 1), side="left")
    values = tuple((new_index[v[0]], v[1], v[2], v[3]) for v in table.values if v[0] in new_index)
    return ItemTable(
        documents=tuple(table.documents[int(d)] for d in used),
        fields=table.fields,
        offsets=tuple(int(o) for o in new_offsets),
        field=tuple(int(f) for f in field[keep]),
        code=tuple(int(c) for c in np.asarray(table.code, dtype=np.int64)[keep]),
        values=values,
    )


def items_frame(table: ItemTable, baseline: str, candidate: str | None) -> pd.DataFrame:
    """Every unit as a row: document, field, each version's outcome, the flip and the values
    (expected and each version's predicted value, for every unit, right or not)."""
    code = np.asarray(table.code, dtype=np.int64)
    offsets = np.asarray(table.offsets, dtype=np.int64)
    doc = np.repeat(np.arange(len(table.documents)), np.diff(offsets))
    names = np.array(OUTCOME_CODES, dtype=object)
    expected = np.full(len(code), None, dtype=object)
    base_value, cand_value = expected.copy(), expected.copy()
    for r, e, b, c in table.values:
        expected[r], base_value[r], cand_value[r] = e, b, c
    frame = pd.DataFrame(
        {
            "document": np.array(table.documents, dtype=object)[doc],
            "field": np.array(table.fields, dtype=object)[np.asarray(table.field, dtype=np.int64)],
            "baseline": baseline,
            "baseline_outcome": names[code // 6],
            "expected": expected,
            "baseline_value": base_value,
        }
    )
    if candidate is not None:
        frame["candidate"] = candidate
        frame["candidate_outcome"] = names[code % 6]
        frame["flip"] = np.array(FLIPS, dtype=object)[flips(table)]
        frame["candidate_value"] = cand_value
    return frame
