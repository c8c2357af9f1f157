"""Statistics between versions: flips, McNemar exact tests with Holm, power (the bootstrap
is :mod:`fieldwise.compare.stats._bootstrap`).

The paired unit is one field of one document: it is *ok* in a version when every cell of that
field in that document is correct or both_empty (for a scalar field that is the one cell; for a
line-item column, all of its rows). A unit a version has no cell for is ok (nothing expected,
nothing predicted).

Per field the significance table also gives Newcombe's paired interval of the unit accuracy
delta at confidence 1 - alpha (what non-inferiority margins are judged on) and the minimum
detectable effect at the observed discordance (Connor 1987, 80% power; see
:mod:`fieldwise.compare.stats._power`). With several candidates, Holm runs over every (candidate,
field) test at once, so adding candidates cannot make a chance regression look significant.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise.compare._codes import compact, key_codes, key_labels
from fieldwise.compare.score._outcomes import OK_OUTCOMES
from fieldwise.compare.stats._intervals import newcombe_paired
from fieldwise.compare.stats._metrics import outcome_codes, outcome_in
from fieldwise.compare.stats._power import minimum_detectable_effect

__all__ = [
    "SIGNIFICANCE_COLUMNS",
    "TRANSITIONS",
    "flip_units",
    "format_p",
    "holm",
    "mcnemar_exact",
    "p_phrase",
    "paired_sample_size",
    "significance_from_counts",
    "tests_from_counts",
    "unit_rows",
]

TRANSITIONS = ("both_right", "regressed", "fixed", "both_wrong")
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


def flip_units(cells: pd.DataFrame, baseline: str, candidate: str) -> pd.DataFrame:
    """One row per (field, item): ``ok_baseline``, ``ok_candidate`` and the ``transition``:
    both_right, regressed (correct→wrong), fixed (wrong→correct) or both_wrong; sorted by
    field, then item (category order for categorical keys). Counted over integer codes."""
    v, versions, _ = key_codes(cells["version"])
    f, fields, field_dtype = key_codes(cells["field"])
    i, items, item_dtype = key_codes(cells["item"])
    inverse, all_units = compact(f * len(items) + i, len(fields) * len(items))
    bad = ~outcome_in(outcome_codes(cells), OK_OUTCOMES)
    known = (f >= 0) & (i >= 0)  # a missing key is in no unit
    present = np.zeros(len(all_units), dtype=np.bool_)
    ok = []
    for name in (baseline, candidate):
        code = versions.get_loc(name) if name in versions else -2
        mine = known & (v == code)
        present[inverse[mine]] = True
        failed = np.zeros(len(all_units), dtype=np.bool_)
        failed[inverse[mine & bad]] = True
        ok.append(~failed)  # a unit without cells in a version is ok there
    where = np.flatnonzero(present)
    units = all_units[where]
    return unit_rows(
        key_labels(units // len(items), fields, field_dtype),
        key_labels(units % len(items), items, item_dtype),
        ok[0][where],
        ok[1][where],
    )


def unit_rows(
    field: Any, item: Any, ok_baseline: npt.NDArray[np.bool_], ok_candidate: npt.NDArray[np.bool_]
) -> pd.DataFrame:
    """The :func:`flip_units` frame of its columns (the transition follows from the two)."""
    b, c = ok_baseline, ok_candidate
    transition = np.select([b & c, b & ~c, ~b & c], [0, 1, 2], default=3).astype(np.int8)
    return pd.DataFrame(
        {
            "field": field,
            "item": item,
            "ok_baseline": b,
            "ok_candidate": c,
            "transition": pd.Categorical.from_codes(transition, categories=pd.Index(TRANSITIONS)),
        }
    )


def mcnemar_exact(regressed: int, fixed: int) -> float:
    """Two-sided exact McNemar p-value: a binomial test of ``fixed`` among the discordant pairs
    with p = 1/2 (1.0 when there are none)."""
    # computed directly: importing scipy costs a second in every fresh process
    from fieldwise.compare.stats._distributions import mcnemar_p

    return mcnemar_p(regressed, fixed)


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


def paired_sample_size(
    p_regress: float, p_fix: float, *, alpha: float = 0.05, power: float = 0.8
) -> int | None:
    """Documents needed for a two-sided McNemar test to detect this difference of paired
    proportions (Connor 1987); ``None`` when there is no difference to detect."""
    delta = p_fix - p_regress
    discordant = p_fix + p_regress
    if delta == 0 or discordant <= 0:
        return None
    from fieldwise.compare.stats._distributions import (
        normal_quantile,  # no scipy, see mcnemar_exact
    )

    za, zb = normal_quantile(1 - alpha / 2), normal_quantile(power)
    n = (za * math.sqrt(discordant) + zb * math.sqrt(max(discordant - delta**2, 0.0))) ** 2
    return math.ceil(n / delta**2)


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
        needed = paired_sample_size(c["regressed"] / n, c["fixed"] / n, alpha=alpha, power=power)
        delta = (c["fixed"] - c["regressed"]) / n
        discordance = (c["fixed"] + c["regressed"]) / n
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


_COLUMNS_BEFORE_HOLM = [c for c in SIGNIFICANCE_COLUMNS if c not in ("p_holm", "significant")]


def _with_holm(table: pd.DataFrame, alpha: float) -> pd.DataFrame:
    table = table.copy()
    table["p_holm"] = holm([float(p) for p in table["p_value"]])
    table["significant"] = table["p_holm"] < alpha
    table["required_n"] = table["required_n"].astype("Int64")
    table["mde"] = table["mde"].astype("float64")
    return table.loc[:, list(SIGNIFICANCE_COLUMNS)].reset_index(drop=True)


def significance_from_counts(
    counts: Mapping[str, pd.DataFrame], *, alpha: float = 0.05, power: float = 0.8
) -> pd.DataFrame:
    """The significance table of every candidate from its merged flip counts (candidate ->
    frame of :data:`TRANSITIONS` columns per field), Holm-adjusted across all (candidate,
    field) tests."""
    if not counts:  # no candidate: the same empty table every time, built once
        return _no_significance().copy()
    rows = [
        {"candidate": candidate, **r}
        for candidate, table in counts.items()
        for r in tests_from_counts(table, alpha=alpha, power=power)
    ]
    return _with_holm(pd.DataFrame(rows, columns=_COLUMNS_BEFORE_HOLM), alpha)


@cache
def _no_significance() -> pd.DataFrame:
    return _with_holm(pd.DataFrame([], columns=_COLUMNS_BEFORE_HOLM), 0.05)
