"""The binomial tail and normal quantile computed without scipy agree with scipy."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binomtest, norm

from fieldwise.compare.stats._distributions import mcnemar_exact, normal_quantile


@pytest.mark.parametrize(
    ("regressed", "fixed"),
    [
        (0, 0),
        (0, 1),
        (1, 0),
        (3, 3),
        (1, 9),
        (9, 1),
        (7, 40),
        (0, 60),
        (3000, 3400),
        (20000, 20500),
    ],
)
def test_mcnemar_exact_is_scipys_binomtest(regressed: int, fixed: int) -> None:
    n = regressed + fixed
    expected = 1.0 if n == 0 else binomtest(fixed, n, 0.5).pvalue
    assert mcnemar_exact(regressed, fixed) == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_every_small_table_matches() -> None:
    for regressed in range(40):
        for fixed in range(40):
            n = regressed + fixed
            expected = 1.0 if n == 0 else binomtest(fixed, n, 0.5).pvalue
            assert mcnemar_exact(regressed, fixed) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("p", [1e-12, 0.001, 0.025, 0.2, 0.5, 0.8, 0.95, 0.975, 0.999999])
def test_normal_quantile_is_scipys_ppf(p: float) -> None:
    assert normal_quantile(p) == pytest.approx(float(norm.ppf(p)), rel=1e-12, abs=1e-15)


def test_normal_quantile_ends() -> None:
    assert normal_quantile(0.0) == -np.inf
    assert normal_quantile(1.0) == np.inf
