"""Wilson and Newcombe intervals, and the minimum detectable effect (Connor 1987), each checked
against a computation written here from the papers' formulas, independently of the library."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from scipy.optimize import brentq
from scipy.stats import norm

from fieldwise.compare import compare
from fieldwise.compare.score._frame import FRAME_COLUMNS
from fieldwise.compare.stats._intervals import newcombe_paired, wilson
from fieldwise.compare.stats._power import connor_sample_size, minimum_detectable_effect


def connor_n(delta: float, psi: float, alpha: float, power: float) -> float:
    """Connor (1987), Biometrics 43:207, eq. (3): documents for a two-sided McNemar test."""
    za, zb = norm.ppf(1 - alpha / 2), norm.ppf(power)
    return (za * math.sqrt(psi) + zb * math.sqrt(psi - delta**2)) ** 2 / delta**2


@pytest.mark.parametrize(
    ("n", "psi", "alpha"), [(100, 0.3, 0.05), (400, 0.1, 0.05), (60, 0.5, 0.01), (1000, 0.05, 0.1)]
)
def test_mde_solves_connors_formula(n: int, psi: float, alpha: float) -> None:
    # the delta at which Connor's n equals the documents at hand, found by a root finder
    direct = brentq(lambda d: connor_n(d, psi, alpha, 0.8) - n, 1e-6, psi - 1e-9)
    assert minimum_detectable_effect(n, psi, alpha=alpha, power=0.8) == pytest.approx(
        direct, rel=1e-6
    )


def test_mde_without_discordance_assumes_every_change_goes_one_way() -> None:
    # no flips observed: the effect delta needs delta discordance, so psi = delta
    direct = brentq(lambda d: connor_n(d, d, 0.05, 0.8) - 60, 1e-3, 1 - 1e-9)
    assert minimum_detectable_effect(60, 0.0) == pytest.approx(direct, rel=1e-6)
    assert 0.12 < direct < 0.14
    assert minimum_detectable_effect(3, 0.0) is None  # 3 documents can never be significant


def test_sample_size_rounds_connor_up() -> None:
    assert connor_sample_size(0.1, 0.2) == math.ceil(connor_n(0.1, 0.2, 0.05, 0.8)) == 155
    assert connor_sample_size(0.0, 0.2) is None


def test_mde_in_the_significance_table_matches_connor() -> None:
    """100 documents: v1 right on 0..79, v2 on 0..59 and 80..89, so 20 regressed and 10
    fixed: discordance 0.3, exact McNemar p = 0.099, not significant."""
    records = []
    for i in range(100):
        b_ok, c_ok = i < 80, i < 60 or 80 <= i < 90
        records += [
            (f"d{i:03d}", "f", "v1", "x", "x" if b_ok else "y", 1.0),
            (f"d{i:03d}", "f", "v2", "x", "x" if c_ok else "y", 1.0),
        ]
    frame = pd.DataFrame(records, columns=list(FRAME_COLUMNS))
    result = compare(frame, {}, baseline="v1", candidate="v2", n_bootstrap=10)
    row = result.significance.set_index("field").loc["f"]
    assert (row["regressed"], row["fixed"], row["n"]) == (20, 10, 100)
    psi = (row["regressed"] + row["fixed"]) / row["n"]
    assert row["discordance"] == pytest.approx(psi)
    direct = brentq(lambda d: connor_n(d, psi, 0.05, 0.8) - row["n"], 1e-6, psi - 1e-9)
    assert row["mde"] == pytest.approx(direct, rel=1e-6)
    assert not row["significant"]


def test_wilson_by_hand() -> None:
    # Wilson (1927): (p + z^2/2n ± z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)
    z = norm.ppf(0.975)
    p, n = 9 / 10, 10
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    got = wilson(9, 10)
    assert got is not None
    assert (got.low, got.high) == pytest.approx((centre - half, centre + half))
    assert wilson(0, 0) is None
    full = wilson(10, 10)
    assert full is not None
    assert full.high == 1.0
    assert full.low < 0.75  # ten of ten is not certainty


def test_newcombe_paired_interval_behaves() -> None:
    # 100 documents: 60 right in both, 15 regressed, 5 fixed, 20 wrong in both
    got = newcombe_paired(60, 15, 5, 20)
    assert got is not None
    assert got.estimate == pytest.approx(-0.1)
    assert got.low < -0.1 < got.high < 0  # a significant drop: the interval excludes 0
    # the Wald interval of a paired difference, sqrt((b + c) - (b - c)^2 / n) / n, agrees
    # closely at large n (here 100x the table)
    big = newcombe_paired(6000, 1500, 500, 2000)
    assert big is not None
    half = norm.ppf(0.975) * math.sqrt(2000 - 1000**2 / 10000) / 10000
    assert (big.low, big.high) == pytest.approx((-0.1 - half, -0.1 + half), abs=2e-3)
    # no flips on 10 documents: a 2 pp margin cannot be confirmed yet
    none = newcombe_paired(10, 0, 0, 0)
    assert none is not None
    assert none.estimate == 0
    assert none.low < -0.02
    assert newcombe_paired(0, 0, 0, 0) is None
