"""The bootstrap interval of the overall accuracy delta, as a Poisson bootstrap over documents.

Each replicate weighs every document by a Poisson(1) draw keyed by its id and the seed
(:mod:`fieldwise.compare.stats._poisson`), so replicate sums are per-document sums that merge by
addition: :func:`bootstrap_columns` turns one partition's cells into integer counts per
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
import pandas as pd

from fieldwise.compare.score._outcomes import OK_OUTCOMES
from fieldwise.compare.stats._poisson import document_replicates

__all__ = [
    "BootstrapInterval",
    "bootstrap_columns",
    "bootstrap_counts",
    "bootstrap_delta",
    "bootstrap_interval",
    "bootstrap_of_counts",
    "sorted_codes",
]


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


#: Beyond this many distinct weights, documents carry weighted sums instead of counts.
MAX_WEIGHT_CLASSES = 16


def sorted_codes(keys: pd.Series) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.str_]]:
    """Integer codes of ``keys`` and the labels they index, sorted as strings: the categorical
    codes themselves when ``keys`` is a categorical of sorted strings (what
    :func:`~fieldwise.compare.score_cells` returns; no million-row string conversion), else
    ``pd.factorize`` of the keys as strings. Only labels that occur are kept."""
    dtype = keys.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        categories = dtype.categories
        codes = np.asarray(keys.cat.codes, dtype=np.int64)
        plain = categories.inferred_type == "string" and categories.is_monotonic_increasing
        if plain and (len(codes) == 0 or codes.min() >= 0):
            used = np.bincount(codes, minlength=len(categories)) > 0
            remap = np.cumsum(used) - 1
            labels = np.asarray(categories[used].to_numpy(dtype=object), dtype=str)
            return remap[codes], labels
    found, labels_index = pd.factorize(keys.astype(str), sort=True)
    return found.astype(np.int64), np.asarray(labels_index, dtype=str)


def bootstrap_columns(
    cells: pd.DataFrame,
    baseline: str,
    candidate: str,
    weights: tuple[float, ...] | None = None,
) -> tuple[npt.NDArray[np.str_], tuple[float, ...], npt.NDArray[Any]]:
    """What the bootstrap needs of each document: the sorted document ids, the distinct field
    weights, and per document the count of ok cells and of cells of each weight in the
    baseline, then in the candidate (integer columns ``ok_b, n_b`` per weight, then ``ok_c,
    n_c``). Counting per weight (not summing weights) keeps every later sum exact. Give
    ``weights`` (every field weight there may be) so that partitions share their columns.

    Cells with more than :data:`MAX_WEIGHT_CLASSES` distinct weights (and no ``weights``
    given) get weights ``()`` and four float columns instead: the weighted ok sum and weight
    sum of the baseline, then of the candidate (deterministic, but not bit-exact across
    partitions)."""
    in_pair = cells["version"].isin([baseline, candidate]).to_numpy()
    columns = ["item", "version", "weight", "outcome"]
    # every cell in the pair (two versions compared): the columns themselves, not a copy
    frame = cells.loc[:, columns] if in_pair.all() else cells.loc[in_pair, columns]
    item_codes, items = sorted_codes(frame["item"])
    return bootstrap_counts(
        item_codes,
        items,
        is_candidate=(frame["version"] == candidate).to_numpy(dtype=bool),
        ok=frame["outcome"].isin(OK_OUTCOMES).to_numpy(dtype=bool),
        cell_weight=frame["weight"].to_numpy(dtype=np.float64),
        weights=weights,
    )


def bootstrap_counts(
    item_codes: npt.NDArray[np.int64],
    items: npt.NDArray[np.str_],
    *,
    is_candidate: npt.NDArray[np.bool_],
    ok: npt.NDArray[np.bool_],
    cell_weight: npt.NDArray[np.float64],
    weights: tuple[float, ...] | None,
) -> tuple[npt.NDArray[np.str_], tuple[float, ...], npt.NDArray[Any]]:
    """:func:`bootstrap_columns` from the cells of the pair as arrays: each cell's code into
    ``items`` (sorted ids, every one present), whether it is the candidate's, whether it is
    ok, and its weight."""
    found = {float(w) for w in np.unique(cell_weight)}
    if weights is None:
        weights = tuple(sorted(found)) if len(found) <= MAX_WEIGHT_CLASSES else ()
    elif not found <= set(weights):
        raise ValueError(f"field weights {sorted(found - set(weights))} are not among {weights}")
    if weights:
        return (
            items,
            weights,
            _class_counts(item_codes, len(items), is_candidate, ok, cell_weight, weights),
        )
    ok_float = ok.astype(np.float64)
    version = is_candidate.astype(np.int64)
    klass = np.zeros(len(cell_weight), dtype=np.int64)
    width, ok_value, n_value = 2, ok_float * cell_weight, cell_weight
    column = version * width + 2 * klass
    size = len(items) * 2 * width
    flat = item_codes * (2 * width) + column
    sums = np.bincount(flat, weights=ok_value, minlength=size) + np.bincount(
        flat + 1, weights=n_value, minlength=size
    )
    return items, weights, sums.reshape(len(items), 2 * width)


def _class_counts(
    item_codes: npt.NDArray[np.int64],
    n_items: int,
    is_candidate: npt.NDArray[np.bool_],
    ok: npt.NDArray[np.bool_],
    cell_weight: npt.NDArray[np.float64],
    weights: tuple[float, ...],
) -> npt.NDArray[np.int64]:
    """The integer columns of :func:`bootstrap_counts` (``ok_b, n_b`` per weight class, then
    ``ok_c, n_c``) counted per item: one int64 key per cell, built in place (no temporary
    of every cell per step: fresh pages cost more than the arithmetic in a new process),
    the key of its ok count; its n count is in the column after."""
    width = 2 * len(weights)
    flat = np.searchsorted(np.array(weights, dtype=np.float64), cell_weight)
    flat *= 2
    flat += item_codes * (2 * width)
    np.add(flat, width, out=flat, where=is_candidate)
    size = n_items * 2 * width
    values = np.bincount(flat[ok], minlength=size)
    values[1:] += np.bincount(flat, minlength=size)[:-1]
    return values.reshape(n_items, 2 * width)


def _accuracy_delta(sums: npt.NDArray[Any], weights: tuple[float, ...]) -> npt.NDArray[np.float64]:
    """candidate - baseline weighted accuracy of each row of ``sums`` (see
    :func:`bootstrap_columns`), summed over the weights in a fixed order."""
    if not weights:
        ok, n = sums[:, [0, 2]].astype(np.float64), sums[:, [1, 3]].astype(np.float64)
    else:
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
    :func:`bootstrap_columns` columns over every document) and ``replicates`` (the same sums
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


def bootstrap_delta(
    cells: pd.DataFrame,
    baseline: str,
    candidate: str,
    *,
    seed: int = 0,
    n_resamples: int = 1000,
    confidence: float = 0.95,
) -> BootstrapInterval:
    """Poisson bootstrap over documents (all fields of a document move together): each replicate
    weighs every document by a Poisson(1) draw keyed by its id and ``seed`` (see
    :mod:`fieldwise.compare.stats._poisson`), and the interval is the percentile interval of the
    weighted cell accuracy delta. Deterministic, and identical when the documents are scored
    in partitions and the sums merged."""
    items, weights, values = bootstrap_columns(cells, baseline, candidate)
    return bootstrap_of_counts(
        items, weights, values, seed=seed, n_resamples=n_resamples, confidence=confidence
    )


def bootstrap_of_counts(
    items: npt.NDArray[np.str_],
    weights: tuple[float, ...],
    values: npt.NDArray[Any],
    *,
    seed: int,
    n_resamples: int,
    confidence: float = 0.95,
    replicates: npt.NDArray[Any] | None = None,
) -> BootstrapInterval:
    """:func:`bootstrap_delta` of what :func:`bootstrap_columns` gives; ``replicates``: their
    replicate sums (:func:`~fieldwise.compare.stats._poisson.document_replicates`) when already
    drawn elsewhere."""
    if replicates is None:
        replicates = document_replicates(items, values, seed, n_resamples)
    return bootstrap_interval(
        values.sum(axis=0),
        replicates,
        weights,
        documents=len(items),
        seed=seed,
        confidence=confidence,
    )
