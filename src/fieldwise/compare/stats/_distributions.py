"""Two distribution figures the statistics need, without importing scipy.

Importing ``scipy.stats`` costs a second or more, which every ``compare`` in a fresh process
(the CLI, a worker) would pay for one normal quantile and a few binomial tails. Both are
computed here to within a few units in the last place of what scipy gives (the tests check
them against scipy).
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

__all__ = ["mcnemar_exact", "normal_quantile"]

_STANDARD = NormalDist()


def normal_quantile(p: float) -> float:
    """The standard normal quantile (``scipy.stats.norm.ppf``); ±inf at 0 and 1."""
    if p <= 0.0:
        return -math.inf if p == 0.0 else math.nan
    if p >= 1.0:
        return math.inf if p == 1.0 else math.nan
    return _STANDARD.inv_cdf(p)


def mcnemar_exact(regressed: int, fixed: int) -> float:
    """Two-sided exact McNemar p-value: the binomial p of ``fixed`` among the discordant pairs
    ``regressed + fixed`` at 1/2, as
    ``scipy.stats.binomtest(fixed, n, 0.5).pvalue`` gives it: the distribution is symmetric,
    so the p is twice the lower tail up to min(k, n - k), capped at 1 (1.0 for n = 0)."""
    n = regressed + fixed
    low = min(regressed, fixed)
    if n == 0 or 2 * low == n:
        return 1.0
    # log C(n, i) for i = 0..low by the running product C(n, i) = C(n, i-1) (n-i+1) / i,
    # summed in log space (terms below e^-745 underflow to 0 as in scipy's double result)
    i = np.arange(1, low + 1, dtype=np.float64)
    log_terms = np.concatenate([[0.0], np.cumsum(np.log(n - i + 1) - np.log(i))])
    log_terms -= n * math.log(2.0)
    top = float(log_terms.max())
    tail = math.exp(top) * float(np.exp(log_terms - top).sum())
    return min(1.0, 2.0 * tail)
