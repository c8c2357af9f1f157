"""Integer codes for large key columns, numbered in sorted order: the per-field intervals, the
report's item table, and the tables counted over (version, item) or (field, item) keys."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pandas as pd

__all__ = ["compact", "key_codes", "key_labels", "sorted_codes"]


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


def key_codes(
    column: pd.Series,
) -> tuple[npt.NDArray[np.int64], pd.Index, pd.CategoricalDtype | None]:
    """A key column as integer codes into sorted labels: a categorical's own codes and
    categories (and its dtype, to label results with), else ``pd.factorize(sort=True)``.
    Missing keys get -1."""
    dtype = column.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        return np.asarray(column.cat.codes, dtype=np.int64), dtype.categories, dtype
    codes, uniques = pd.factorize(column, sort=True)
    return np.asarray(codes, dtype=np.int64), pd.Index(uniques), None


def key_labels(
    codes: npt.NDArray[np.int64], labels: pd.Index, dtype: pd.CategoricalDtype | None
) -> pd.Categorical | pd.Index:
    """The keys of ``codes`` as :func:`key_codes` read them: categorical again when they were."""
    if dtype is not None:
        return pd.Categorical.from_codes(codes, dtype=dtype)
    return labels.take(codes)


def compact(
    key: npt.NDArray[np.int64], span: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each key's index into the sorted units it may take, and those units: every value below
    ``span`` when that is dense enough to count over, else the distinct keys."""
    if span <= 8 * len(key) + 1_000_000:
        return key, np.arange(span, dtype=np.int64)
    units, inverse = np.unique(key, return_inverse=True)
    return np.asarray(inverse, dtype=np.int64).ravel(), np.asarray(units, dtype=np.int64)
