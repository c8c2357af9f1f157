"""Statistics between versions from flip counts: McNemar exact tests with Holm, power (the
units and their flips are :mod:`fieldwise.compare.stats._units`, the bootstrap
:mod:`fieldwise.compare.stats._bootstrap`).

Per field the significance table also gives Newcombe's paired interval of the unit accuracy
delta at confidence 1 - alpha (what non-inferiority margins are judged on) and the minimum
detectable effect at the observed discordance (Connor 1987, 80% power; see
:mod:`fieldwise.compare.stats._power`). With several candidates, Holm runs over every (candidate,
field) test at once, so adding candidates cannot make a chance regression look significant.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from fieldwise.compare.stats._distributions import mcnemar_exact
from fieldwise.compare.stats._intervals import newcombe_paired
from fieldwise.compare.stats._power import connor_sample_size, minimum_detectable_effect
from fieldwise.compare.stats._units import TRANSITIONS

__all__ = [
    "SIGNIFICANCE_COLUMNS",
    "format_p",
    "holm",
    "p_phrase",
    "significance_from_counts",
    "tests_from_counts",
]

SIGNIFICANCE_COLUMNS = (
    "candidate",
    "field",
    *TRANSITIONS,
    "n",
    "delta",
    "delta_low",
    "delta_high",
    "discordance",
    "mde",
    "p_value",
    "p_holm",
    "significant",
    "required_n",
    "warning",
)


def format_p(value: float | None) -> str:
    """A p-value with three decimals, "<0.001" below that, "-" when missing: every p printed
    reads alike (never "1" beside "0.000199")."""
    if value is None or math.isnan(float(value)):
        return "-"
    p = float(value)
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def p_phrase(value: float | None, label: str = "p") -> str:
    """``p=0.375`` or ``p<0.001`` (never ``p=<0.001``), for p-values inside sentences."""
    text = format_p(value)
    return f"{label}{text}" if text.startswith("<") else f"{label}={text}"


def holm(p_values: list[float]) -> list[float]:
    """Holm step-down adjusted p-values, in the input order."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def tests_from_counts(
    counts: pd.DataFrame, *, alpha: float, power: float
) -> list[dict[str, object]]:
    """One significance row per field of ``counts`` (a frame of :data:`TRANSITIONS` columns
    per field), before Holm: flips, McNemar p, Newcombe interval, MDE and the power warning."""
    rows: list[dict[str, object]] = []
    for field, row in counts.iterrows():
        c = {t: int(row[t]) for t in TRANSITIONS}
        n = sum(c.values())
        if n == 0:
            continue
        p = mcnemar_exact(c["regressed"], c["fixed"])
        delta = (c["fixed"] - c["regressed"]) / n
        discordance = (c["fixed"] + c["regressed"]) / n
        needed = connor_sample_size(delta, discordance, alpha=alpha, power=power)
        interval = newcombe_paired(
            c["both_right"], c["regressed"], c["fixed"], c["both_wrong"], confidence=1 - alpha
        )
        assert interval is not None
        mde = minimum_detectable_effect(n, discordance, alpha=alpha, power=power)
        warning = ""
        if needed is not None and p >= alpha and needed > n:
            warning = (
                f"{field}: delta {100 * delta:+.1f} pp on {n} documents is not significant "
                f"({p_phrase(p)}); about {needed} documents would detect it with "
                f"{power:.0%} power"
            )
        rows.append(
            {
                "field": field,
                **c,
                "n": n,
                "delta": delta,
                "delta_low": interval.low,
                "delta_high": interval.high,
                "discordance": discordance,
                "mde": np.nan if mde is None else mde,
                "p_value": p,
                "required_n": needed,
                "warning": warning,
            }
        )
    return rows


def significance_from_counts(
    counts: Mapping[str, pd.DataFrame], *, alpha: float = 0.05, power: float = 0.8
) -> pd.DataFrame:
    """The significance table of every candidate from its merged flip counts (candidate ->
    frame of :data:`TRANSITIONS` columns per field), Holm-adjusted across all (candidate,
    field) tests."""
    rows = [
        {"candidate": candidate, **r}
        for candidate, table in counts.items()
        for r in tests_from_counts(table, alpha=alpha, power=power)
    ]
    before_holm = [c for c in SIGNIFICANCE_COLUMNS if c not in ("p_holm", "significant")]
    table = pd.DataFrame(rows, columns=before_holm)
    table["p_holm"] = holm([float(p) for p in table["p_value"]])
    table["significant"] = table["p_holm"] < alpha
    table["required_n"] = table["required_n"].astype("Int64")
    table["mde"] = table["mde"].astype("float64")
    return table.loc[:, list(SIGNIFICANCE_COLUMNS)].reset_index(drop=True)
