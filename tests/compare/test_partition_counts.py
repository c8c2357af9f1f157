"""The integer statistics of a partition are counted on integer codes (numpy), not through
pandas group-bys of strings: they must equal what the cell-level tables count, and statistics
merged over shards must reduce to the whole comparison's figures, including list fields (row
tests) and all-null columns, for the gate to decide the same from either."""

from __future__ import annotations

from functools import reduce
from typing import Any

import numpy as np
import pandas as pd
import pytest

from fieldwise._errors import CompareError
from fieldwise.compare import build_frame, compare, parse_field_specs, score_cells
from fieldwise.compare._codes import sorted_codes
from fieldwise.compare.stats._reduce import reduce_statistics
from fieldwise.compare.stats._sufficient import (
    empty_statistics,
    merge_statistics,
    partition_statistics,
    weight_classes,
)
from fieldwise.gate import Policy, decide_all
from tests.scale._data import LIST_SPEC, listed_outputs

SPECS = parse_field_specs(LIST_SPEC["fields"], date_order="YMD")  # type: ignore[arg-type]
WEIGHTS = weight_classes(SPECS)
CANDIDATES = ["v2", "v3"]


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    truth, outputs = listed_outputs(240, seed=5)
    predictions = {
        version: {item: {"value": out} for item, out in by_doc.items() if out is not None}
        for version, by_doc in outputs.items()
    }
    return build_frame(truth, predictions)


def _stats(frame: pd.DataFrame, seed: int = 1) -> Any:
    cells, row_counts, _ = score_cells(frame, SPECS)
    return partition_statistics(
        cells,
        baseline="v1",
        candidates=CANDIDATES,
        weights=WEIGHTS,
        seed=seed,
        n_resamples=200,
        row_counts=row_counts,
    )


def test_statistics_do_not_depend_on_row_order_or_key_type(frame: pd.DataFrame) -> None:
    """Shuffled rows and plain (non-categorical) keys give the statistics of the scored cells:
    flips, outcome and document counts, and the bootstrap's sums, to the bit."""
    cells, row_counts, _ = score_cells(frame, SPECS)
    shuffled = cells.sample(frac=1.0, random_state=3)
    plain = shuffled.assign(
        version=shuffled["version"].astype(str),
        item=shuffled["item"].astype(str),
        field=shuffled["field"].astype(str),
    )
    want = _stats(frame)
    for variant in (shuffled, plain):
        got = partition_statistics(
            variant,
            baseline="v1",
            candidates=CANDIDATES,
            weights=WEIGHTS,
            seed=1,
            n_resamples=200,
            row_counts=row_counts,
        )
        assert got.transitions == want.transitions
        assert got.outcomes == want.outcomes
        assert got.documents == want.documents
        for candidate in CANDIDATES:
            assert np.array_equal(got.boot_totals[candidate], want.boot_totals[candidate])
            assert np.array_equal(got.boot_replicates[candidate], want.boot_replicates[candidate])


def test_sorted_codes_of_any_key_type(frame: pd.DataFrame) -> None:
    cells, _, _ = score_cells(frame, SPECS)
    for keys in (cells["item"], cells["item"].astype(object)):
        codes, labels = sorted_codes(keys)
        assert list(labels) == sorted(set(cells["item"].astype(str)))
        assert np.array_equal(labels[codes], cells["item"].astype(str).to_numpy(dtype=str))


def _sharded(frame: pd.DataFrame) -> Any:
    """The statistics of ``frame``'s documents in 7 shards, merged."""
    items = frame["item"].unique()
    which = pd.Series(np.arange(len(items)) % 7, index=items)
    chunks = [frame.loc[(which.reindex(frame["item"]) == k).to_numpy()] for k in range(7)]
    empty = empty_statistics(
        baseline="v1", candidates=CANDIDATES, weights=WEIGHTS, seed=1, n_resamples=200
    )
    return reduce(merge_statistics, [_stats(c) for c in chunks], empty)


def test_row_tests_and_empty_columns_reduce_to_the_whole_comparison(frame: pd.DataFrame) -> None:
    result = compare(frame, SPECS, baseline="v1", candidates=CANDIDATES, seed=1, n_bootstrap=200)
    reduced = reduce_statistics(_sharded(frame))
    assert len(reduced.row_tests) == 2
    assert len(reduced.empty_columns) == 1
    pd.testing.assert_frame_equal(
        reduced.row_tests, result.row_tests, check_exact=True, check_dtype=False
    )
    pd.testing.assert_frame_equal(
        reduced.empty_columns, result.empty_columns, check_exact=True, check_dtype=False
    )
    # one result type: figures reduced from statistics alone say they hold no cells
    for name in ("cells", "documents", "flips"):
        with pytest.raises(CompareError, match="hold no cells"):
            getattr(reduced, name)


@pytest.mark.parametrize(
    "policy",
    [
        Policy(),
        Policy(min_accuracy=0.8, max_regression=0.01, max_failed_run_share=0.1),
        Policy(alpha=0.2, margin=0.02, critical=("total",), min_support=100),
        Policy(min_field_accuracy=0.9, max_row_recall_drop=0.0, min_documents=500),
    ],
)
def test_the_gate_decides_the_same_from_sharded_statistics(
    frame: pd.DataFrame, policy: Policy
) -> None:
    whole = compare(
        frame,
        SPECS,
        baseline="v1",
        candidates=CANDIDATES,
        seed=1,
        n_bootstrap=200,
        alpha=policy.alpha,
    )
    reduced = reduce_statistics(_sharded(frame), specs=SPECS, alpha=policy.alpha)
    want = decide_all(whole, policy, documents=240)
    got = decide_all(reduced, policy, documents=240)
    assert repr(got) == repr(want)  # every rule, figure and message (repr: NaN equals NaN)
    # the rules that read list rows and all-null columns are among those checked
    rules = {r.rule for v in got for r in v.rules}
    assert {"row_recall", "empty_column", "critical"} <= rules


@pytest.mark.parametrize("seed", range(6))
def test_bootstrap_counts_per_weight_class_count_every_cell(seed: int) -> None:
    """Each item's ok and cell counts per weight class, baseline then candidate: what
    counting every cell one by one gives (items without cells too)."""
    from fieldwise.compare.stats._bootstrap import bootstrap_counts

    rng = np.random.default_rng(seed)
    n_items, n = int(rng.integers(1, 40)), int(rng.integers(0, 400))
    given = (0.5, 1.0, 2.0, 3.0)
    item_codes = rng.integers(0, n_items, n).astype(np.int64)
    is_candidate = rng.random(n) < 0.5
    ok = rng.random(n) < 0.7
    cell_weight = np.asarray(given)[rng.integers(0, 3, n)]
    values = bootstrap_counts(
        item_codes,
        n_items,
        is_candidate=is_candidate,
        ok=ok,
        cell_weight=cell_weight,
        weights=given,
    )
    want = np.zeros((n_items, 4 * len(given)), dtype=np.int64)
    for i, c, k, w in zip(item_codes, is_candidate, ok, cell_weight, strict=True):
        column = int(c) * 2 * len(given) + 2 * given.index(float(w))
        want[i, column] += int(k)
        want[i, column + 1] += 1
    assert values.dtype == np.int64
    np.testing.assert_array_equal(values, want)
