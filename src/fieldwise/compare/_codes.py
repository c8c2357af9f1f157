"""Integer codes for large string columns, numbered in sorted order (shared by the per-field
intervals here and the report's item table)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pandas as pd

__all__ = ["sorted_codes"]


def sorted_codes(values: pd.Series) -> tuple[npt.NDArray[np.int64], list[str]]:
    """Integer codes of ``values`` numbered in sorted (string) order, and the sorted names.

    Hashing first and sorting only the distinct names is much faster than sorting a million
    strings (and categorical inputs may carry unsorted or unused categories)."""
    codes, uniques = pd.factorize(values)
    names = np.array([str(u) for u in uniques], dtype=object)
    order = np.argsort(names, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[codes], [str(n) for n in names[order]]
