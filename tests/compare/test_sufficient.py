"""Mergeable statistics: any partitioning of the documents gives the same figures, to the bit,
and the figures agree with :func:`fieldwise.compare.compare` on the same cells."""

from __future__ import annotations

from functools import reduce

import numpy as np
import pandas as pd
import pytest

from fieldwise.compare import score_cells
from fieldwise.compare.stats._poisson import document_keys, poisson_weights
from fieldwise.compare.stats._reduce import reduce_statistics
from fieldwise.compare.stats._sufficient import (
    Sufficient,
    empty_statistics,
    merge_statistics,
    partition_statistics,
    weight_classes,
)
from tests.scale._data import SPECS, figures_of, generated_frame

WEIGHTS = weight_classes(SPECS)


def _stats(frame: pd.DataFrame) -> Sufficient:
    cells, _, _ = score_cells(frame, SPECS)
    return partition_statistics(
        cells, baseline="v1", candidates=["v2"], weights=WEIGHTS, seed=3, n_resamples=300
    )


def _partitioned(frame: pd.DataFrame, parts: int, seed: int) -> Sufficient:
    items = frame["item"].unique()
    which = pd.Series(np.random.default_rng(seed).integers(0, parts, len(items)), index=items)
    chunks = [frame.loc[(which.reindex(frame["item"]) == k).to_numpy()] for k in range(parts)]
    empty = empty_statistics(
        baseline="v1", candidates=["v2"], weights=WEIGHTS, seed=3, n_resamples=300
    )
    # merged in reverse order, too: addition of integers does not care
    return reduce(merge_statistics, [_stats(c) for c in reversed(chunks) if len(c)], empty)


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return generated_frame(600, seed=11)


def test_any_partitioning_gives_identical_statistics_and_figures(frame: pd.DataFrame) -> None:
    whole = _stats(frame)
    for parts, seed in ((2, 0), (7, 1), (31, 2)):
        split = _partitioned(frame, parts, seed)
        assert split.outcomes == whole.outcomes
        assert split.transitions == whole.transitions
        assert split.documents == whole.documents
        assert split.calibration == whole.calibration
        assert np.array_equal(split.boot_replicates["v2"], whole.boot_replicates["v2"])
        assert np.array_equal(split.boot_totals["v2"], whole.boot_totals["v2"])
        assert figures_of(reduce_statistics(split)) == figures_of(reduce_statistics(whole))


def test_poisson_weights_are_poisson_one_and_keyed_by_document() -> None:
    keys = document_keys([f"doc {i}" for i in range(4000)], seed=0)
    weights = poisson_weights(keys, 0, 500)
    assert abs(weights.mean() - 1) < 0.01
    assert abs(weights.var() - 1) < 0.02
    share_zero = float((weights == 0).mean())
    assert abs(share_zero - np.exp(-1)) < 0.01
    # the same document and seed give the same weights, wherever it sits among others
    again = poisson_weights(document_keys(["doc 17"], seed=0), 0, 500)
    assert np.array_equal(again[0], weights[17])
    other_seed = poisson_weights(document_keys(["doc 17"], seed=1), 0, 500)
    assert not np.array_equal(other_seed[0], weights[17])


def test_merge_refuses_statistics_of_another_comparison(frame: pd.DataFrame) -> None:
    one = _stats(frame.loc[frame["item"] < "d0000300"])
    cells, _, _ = score_cells(frame, SPECS)
    other = partition_statistics(
        cells, baseline="v1", candidates=["v2"], weights=WEIGHTS, seed=4, n_resamples=300
    )
    with pytest.raises(ValueError, match="different comparisons"):
        merge_statistics(one, other)
