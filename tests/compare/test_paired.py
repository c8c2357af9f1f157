"""Statistics between versions on known tables.

Field "f" over 15 documents: 5 right in both, 9 fixed (wrong in v1, right in v2), 1 regressed
(right in v1, wrong in v2). McNemar exact p = P(|X - 5| >= 4), X ~ Bin(10, 1/2) = 22/1024.
Field "g" over the same documents: 14 right in both, 1 regressed: p = 1.0.
Holm over (22/1024, 1.0): 2 * 22/1024 and max(that, 1.0).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest, norm

from fieldwise.cli._compare_table import render_table
from fieldwise.compare import (
    ComparisonResult,
    compare,
    connor_sample_size,
    holm,
    mcnemar_exact,
    parse_field_specs,
)
from fieldwise.compare.score._frame import FRAME_COLUMNS


def make_frame() -> pd.DataFrame:
    records = []
    for i in range(15):
        item = f"d{i:02d}"
        v1_ok = i < 5 or i == 14
        v2_ok = i < 14
        records += [
            (item, "f", "v1", "x", "x" if v1_ok else "y", 0.9),
            (item, "f", "v2", "x", "x" if v2_ok else "y", 0.9),
            (item, "g", "v1", "x", "x", 0.9),
            (item, "g", "v2", "x", "x" if i else "z", 0.9),
        ]
    frame = pd.DataFrame(records, columns=list(FRAME_COLUMNS))
    frame[["expected", "predicted"]] = frame[["expected", "predicted"]].astype(object)
    return frame


@pytest.mark.parametrize(("regressed", "fixed"), [(1, 9), (0, 6), (3, 3), (7, 2), (20, 35)])
def test_mcnemar_matches_scipy(regressed: int, fixed: int) -> None:
    n = regressed + fixed
    assert mcnemar_exact(regressed, fixed) == pytest.approx(binomtest(fixed, n, 0.5).pvalue)


def test_mcnemar_known_values() -> None:
    assert mcnemar_exact(1, 9) == pytest.approx(22 / 1024)
    assert mcnemar_exact(0, 0) == 1.0


def test_holm_by_hand() -> None:
    assert holm([0.01, 0.04, 0.03, 0.2]) == pytest.approx([0.04, 0.09, 0.09, 0.2])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def test_flips_and_significance_through_compare() -> None:
    result = compare(make_frame(), {}, baseline="v1", candidate="v2", n_bootstrap=200)
    sig = result.significance.set_index("field")
    row = sig.loc["f"].to_dict()
    counts = [int(row[t]) for t in ("both_right", "regressed", "fixed", "both_wrong")]
    assert counts == [5, 1, 9, 0]
    assert sig.loc["f", "p_value"] == pytest.approx(22 / 1024)
    assert sig.loc["f", "p_holm"] == pytest.approx(44 / 1024)
    assert bool(sig.loc["f", "significant"])
    assert sig.loc["g", "p_holm"] == 1.0
    flips = result.flips
    fixed = flips.loc[(flips["field"] == "f") & (flips["transition"] == "fixed"), "item"]
    assert fixed.tolist() == [f"d{i:02d}" for i in range(5, 14)]
    regressed = flips.loc[flips["transition"] == "regressed", ["field", "item"]]
    assert regressed.values.tolist() == [["f", "d14"], ["g", "d00"]]
    # the overall delta: v1 has 6 + 15 = 21 of 30 cells right, v2 has 14 + 14 = 28
    assert result.delta == pytest.approx(7 / 30)


def test_bootstrap_is_seeded_and_resamples_documents() -> None:
    def run() -> ComparisonResult:
        return compare(make_frame(), {}, baseline="v1", candidate="v2", seed=7, n_bootstrap=4000)

    result = run()
    a, cells = result.bootstrap, result.cells
    assert a is not None
    assert a == run().bootstrap
    assert a.documents == 15
    assert a.low <= a.delta <= a.high

    # a plain loop weighing each document by a Poisson(1) draw gives the same interval (up to
    # Monte Carlo error)
    per_doc: dict[str, list[int]] = {}
    for item, group in cells.groupby("item", observed=True):
        ok = group["outcome"].isin(["correct", "both_empty"])
        per_doc[str(item)] = [int(ok[group["version"] == v].sum()) for v in ("v1", "v2")]
    docs = sorted(per_doc)
    weights = np.random.default_rng(7).poisson(1.0, size=(4000, 15))
    deltas = [
        sum(w * (per_doc[d][1] - per_doc[d][0]) for w, d in zip(row, docs, strict=True))
        / (2 * row.sum())
        for row in weights
        if row.sum()
    ]
    assert a.low == pytest.approx(float(np.percentile(deltas, 2.5)), abs=0.02)
    assert a.high == pytest.approx(float(np.percentile(deltas, 97.5)), abs=0.02)


def test_connor_sample_size_formula() -> None:
    za, zb = norm.ppf(0.975), norm.ppf(0.8)
    by_hand = (za * math.sqrt(0.2) + zb * math.sqrt(0.2 - 0.01)) ** 2 / 0.01
    assert connor_sample_size(0.1, 0.2) == math.ceil(by_hand) == 155
    assert connor_sample_size(0.0, 0.2) is None


def test_underpowered_field_warns_with_sample_size() -> None:
    result = compare(make_frame(), {}, baseline="v1", candidate="v2", n_bootstrap=100)
    assert any(
        w.startswith("g: delta -6.7 pp on 15 documents is not significant")
        and "documents would detect it with 80% power" in w
        for w in result.warnings
    )
    needed = result.significance.set_index("field").loc["g", "required_n"]
    assert needed == connor_sample_size(-1 / 15, 1 / 15)


def test_suspected_truth_errors() -> None:
    """d0: truth 100, both versions say "1.000,00" with confidence >= 0.9: suspected.
    d1: both wrong but with different values: not suspected. d2: same wrong value, low confidence.
    """
    rows = [
        ("d0", "t", "v1", 100, "1.000,00", 0.95),
        ("d0", "t", "v2", 100, 1000.0, 0.99),
        ("d1", "t", "v1", 100, 7, 0.95),
        ("d1", "t", "v2", 100, 8, 0.95),
        ("d2", "t", "v1", 100, 5, 0.5),
        ("d2", "t", "v2", 100, 5, 0.95),
    ]
    frame = pd.DataFrame(rows, columns=list(FRAME_COLUMNS))
    frame[["expected", "predicted"]] = frame[["expected", "predicted"]].astype(object)
    specs = parse_field_specs({"t": {"type": "number"}})
    result = compare(frame, specs, baseline="v1", candidate="v2", n_bootstrap=10)
    sus = result.suspected_truth_errors
    assert sus["item"].tolist() == ["d0"]
    assert sus["confidence"].tolist() == [0.95]


def test_table_flags_improvement_and_underpowered_fields() -> None:
    result = compare(make_frame(), {}, baseline="v1", candidate="v2", n_bootstrap=100)
    lines = {line.split()[0]: line for line in render_table(result).splitlines()[2:4]}
    assert lines["g"].endswith("underpowered")
    assert lines["f"].endswith("improved")
    assert lines["f"].split()[2:6] == ["15", "40.0%", "93.3%", "+53.3"]
    swapped = compare(make_frame(), {}, baseline="v2", candidate="v1", n_bootstrap=100)
    first = render_table(swapped).splitlines()[2]
    assert first.split()[0] == "f"
    assert first.endswith("REGRESSED")


def test_p_values_read_alike_inside_sentences() -> None:
    from fieldwise.compare.stats._paired import format_p, p_phrase

    assert format_p(0.000199) == "<0.001"
    assert format_p(1.0) == "1.000"
    assert p_phrase(0.000199) == "p<0.001"
    assert p_phrase(0.375, "Holm-adjusted p") == "Holm-adjusted p=0.375"


def test_poisson_draws_count_the_thresholds_reached() -> None:
    """The bucket lookup gives, for every hashed value, the number of Poisson(1) CDF
    thresholds its top 53 bits reach: random values, and values on either side of every
    threshold (where the top 16 bits alone do not decide)."""
    from fieldwise.compare.stats._poisson import _THRESHOLDS, draws

    rng = np.random.default_rng(11)
    edges = np.concatenate(
        [(_THRESHOLDS << np.uint64(11)) + np.uint64(d) for d in (0, 1, 2047)]
        + [(_THRESHOLDS << np.uint64(11)) - np.uint64(d) for d in (1, 2048, 2049)]
    )
    values = np.concatenate([rng.integers(0, 2**64 - 1, 200_000, dtype=np.uint64), edges])
    want = np.searchsorted(_THRESHOLDS, values >> np.uint64(11), side="right")
    assert np.array_equal(draws(values.copy()), want)
    assert set(np.unique(draws(edges.copy())).tolist()) >= {1, 2, 3, 4}


def _splitmix_inverse(y: int) -> int:
    """The key whose replicate-0 value is ``y`` before the finalizer's last step (the first
    two steps of SplitMix64 undone: odd multipliers and xor-shifts are invertible)."""
    from fieldwise.compare.stats._poisson import _M1, _M2

    mask = (1 << 64) - 1

    def unshift(v: int, s: int) -> int:
        x = v
        for _ in range(64 // s + 1):
            x = v ^ (x >> s)
        return x

    c = (y * pow(int(_M2), -1, 1 << 64)) & mask
    a = (unshift(c, 27) * pow(int(_M1), -1, 1 << 64)) & mask
    return unshift(a, 30)


def test_poisson_weights_are_the_draws_of_the_whole_finalizer() -> None:
    """The weights skip the finalizer's last step where the top 16 bits decide: they equal the
    draws of the fully mixed values, for random keys and for keys whose value lands on a
    threshold, where the last step changes the draw."""
    from fieldwise.compare.stats._poisson import (
        _GOLDEN,
        _M1,
        _M2,
        _THRESHOLDS,
        draws,
        poisson_weights,
    )

    def mixed(keys: np.ndarray, n: int) -> np.ndarray:
        with np.errstate(over="ignore"):
            x = keys[:, None] + np.arange(n, dtype=np.uint64)[None, :] * _GOLDEN
            x = (x ^ (x >> np.uint64(30))) * _M1
            x = (x ^ (x >> np.uint64(27))) * _M2
            return x ^ (x >> np.uint64(31))

    rng = np.random.default_rng(5)
    keys = rng.integers(0, 2**64 - 1, 2000, dtype=np.uint64)
    assert np.array_equal(poisson_weights(keys, 0, 300), draws(mixed(keys, 300)))
    targets = [(int(t) << 11) + d for t in _THRESHOLDS for d in (0, 1, 2047, 2048, -1, -2048)]
    edge = np.array([_splitmix_inverse(y % (1 << 64)) for y in targets], dtype=np.uint64)
    want = draws(mixed(edge, 1))
    assert np.array_equal(poisson_weights(edge, 0, 1), want)
    tops = np.array([y >> 11 for y in targets], dtype=np.uint64)
    unmixed = np.searchsorted(_THRESHOLDS, tops, side="right")
    assert (unmixed != want[:, 0]).any()  # the last step matters on these keys


def test_document_keys_are_the_salted_blake2b_of_each_id() -> None:
    """Pinned keys (BLAKE2b-64 of seed, NUL and the id, little-endian): a list, a NumPy array of
    strings, an object array with a number among the ids, and another seed."""
    from fieldwise.compare.stats._poisson import document_keys

    want = [8946082387420559829, 10668670466899529365, 5885155923499514419]
    ids = ["doc 1", "Rechnung ü-7", 42]
    assert document_keys(ids, 0).tolist() == want
    assert document_keys(np.array(ids, dtype=object), 0).tolist() == want
    assert document_keys(np.array(["doc 1"]), 3).tolist() == [8114746181437372835]
    keys = document_keys([], 0)
    assert keys.dtype == np.uint64
    assert len(keys) == 0
