"""The bootstrap interval of the overall accuracy delta, as a Poisson bootstrap over documents.

Each replicate weighs every document by a Poisson(1) draw keyed by its id and the seed
(:mod:`fieldwise.compare.stats._poisson`), so replicate sums are per-document sums that merge by
addition: :func:`bootstrap_counts` turns one partition's cells into integer counts per
document, :func:`~fieldwise.compare.stats._poisson.replicate_sums` weighs them, and
:func:`bootstrap_interval` reads the interval off the merged sums. One process or many
partitions give the same interval, to the last bit.
"""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["BootstrapInterval", "bootstrap_counts", "bootstrap_interval"]


@dataclass(frozen=True)
class BootstrapInterval:
    """Percentile interval of the overall accuracy delta (candidate - baseline)."""

    delta: float
    low: float
    high: float
    confidence: float
    n_resamples: int
    seed: int
    documents: int

    def to_json(self) -> dict[str, Any]:
        """Every field as a plain JSON value."""
        return dataclasses.asdict(self)


def bootstrap_counts(
    item_codes: npt.NDArray[np.int64],
    n_items: int,
    *,
    is_candidate: npt.NDArray[np.bool_] | bool,
    ok: npt.NDArray[np.bool_],
    cell_weight: npt.NDArray[np.float64] | float,
    weights: tuple[float, ...],
) -> npt.NDArray[np.int64]:
    """What the bootstrap needs of each of ``n_items`` documents (rows), from the cells of the
    pair as arrays (each cell's document code, whether it is the candidate's, whether it is
    ok, its weight; one value for every cell of a wide column): the count of ok cells and of
    cells of each of ``weights`` (every weight a cell may carry, so that partitions share their
    columns) in the baseline, then in the candidate (columns ``ok_b, n_b`` per weight, then
    ``ok_c, n_c``). Counting per weight (not summing weights) keeps every later sum exact.

    One int64 key per cell, built in place (no temporary of every cell per step: fresh pages
    cost more than the arithmetic in a new process), the key of its ok count; its n count is
    in the column after. A column's cells share one key column: two counts per document."""
    found = {float(w) for w in np.unique(cell_weight)}
    if not found <= set(weights):
        raise ValueError(f"field weights {sorted(found - set(weights))} are not among {weights}")
    width = 2 * len(weights)
    flat = np.searchsorted(np.array(weights, dtype=np.float64), cell_weight)
    if np.ndim(flat) == 0 and np.ndim(is_candidate) == 0:
        values = np.zeros((n_items, 2 * width), dtype=np.int64)
        column = 2 * int(flat) + (width if is_candidate else 0)
        values[:, column] = np.bincount(item_codes[ok], minlength=n_items)
        values[:, column + 1] = np.bincount(item_codes, minlength=n_items)
        return values
    flat = np.broadcast_to(flat, item_codes.shape) * 2
    flat += item_codes * (2 * width)
    np.add(flat, width, out=flat, where=is_candidate)
    size = n_items * 2 * width
    counted = np.bincount(flat[ok], minlength=size)
    counted[1:] += np.bincount(flat, minlength=size)[:-1]
    return counted.reshape(n_items, 2 * width)


def _accuracy_delta(sums: npt.NDArray[Any], weights: tuple[float, ...]) -> npt.NDArray[np.float64]:
    """candidate - baseline weighted accuracy of each row of ``sums`` (see
    :func:`bootstrap_counts`), summed over the weights in a fixed order."""
    w = np.array(weights, dtype=np.float64)
    parts = sums.reshape(len(sums), 2, len(weights), 2).astype(np.float64)
    ok = (parts[:, :, :, 0] * w).sum(axis=2)
    n = (parts[:, :, :, 1] * w).sum(axis=2)
    with np.errstate(invalid="ignore", divide="ignore"):
        out: npt.NDArray[np.float64] = ok[:, 1] / n[:, 1] - ok[:, 0] / n[:, 0]
    return out


def bootstrap_interval(
    totals: npt.NDArray[Any],
    replicates: npt.NDArray[Any],
    weights: tuple[float, ...],
    *,
    documents: int,
    seed: int,
    confidence: float = 0.95,
) -> BootstrapInterval:
    """The percentile interval from summed counts: ``totals`` (one row of
    :func:`bootstrap_counts` columns over every document) and ``replicates`` (the same sums
    under each replicate's Poisson weights). Pure arithmetic on merged integers, so it is the
    same whether the sums came from one process or many partitions."""
    delta = float(_accuracy_delta(totals.reshape(1, -1), weights)[0])
    stats = _accuracy_delta(replicates, weights)
    tail = (1 - confidence) / 2 * 100
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # every replicate empty: NaN interval
        low, high = np.nanpercentile(stats, [tail, 100 - tail])
    return BootstrapInterval(
        delta=delta,
        low=float(low),
        high=float(high),
        confidence=float(confidence),
        n_resamples=len(replicates),
        seed=int(seed),
        documents=int(documents),
    )
