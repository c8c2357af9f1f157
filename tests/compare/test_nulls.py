"""All-null columns reduced from a partition's statistics equal the per-document definition
(kept here)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from fieldwise.compare.score._outcomes import OUTCOMES
from fieldwise.compare.stats._reduce import EMPTY_COLUMN_COLUMNS, reduce_statistics
from fieldwise.compare.stats._sufficient import partition_statistics


def _reference(cells: pd.DataFrame, baseline: str, candidates: list[str]) -> pd.DataFrame:
    rows = []
    has_value = cells["outcome"].isin(["correct", "wrong", "spurious"])
    has_expected = cells["outcome"].isin(["correct", "wrong", "missed"])
    versions = set(cells["version"].astype(str))
    for candidate in candidates:
        if baseline not in versions or candidate not in versions:
            continue
        for field in sorted(set(cells["field"].astype(str))):
            mine = cells["field"].astype(str) == field
            base = mine & (cells["version"].astype(str) == baseline)
            cand = mine & (cells["version"].astype(str) == candidate)
            had = set(cells.loc[base & has_value, "item"].astype(str))
            got = set(cells.loc[cand & has_value, "item"].astype(str))
            if had and not had & got:
                expected = cells.loc[base & has_expected, "item"].astype(str).nunique()
                rows.append((candidate, field, len(had), expected))
    return pd.DataFrame(rows, columns=list(EMPTY_COLUMN_COLUMNS))


def empty_columns(cells: pd.DataFrame, baseline: str, candidates: list[str]) -> pd.DataFrame:
    stats = partition_statistics(
        cells, baseline=baseline, candidates=candidates, weights=(1.0,), n_resamples=10
    )
    return reduce_statistics(stats).empty_columns


def _cells(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = 3000
    outcome = rng.choice(len(OUTCOMES), n, p=[0.3, 0.1, 0.1, 0.1, 0.4])
    field = rng.choice(["a", "b", "c", "d"], n)
    version = rng.choice(["v1", "v2", "v3"], n)
    outcome[(field == "c") & (version == "v2")] = OUTCOMES.index("missed")  # v2 drops c
    return pd.DataFrame(
        {
            "version": pd.Categorical(version, categories=["v1", "v2", "v3", "unused"]),
            "item": pd.Categorical([f"d{i}" for i in rng.integers(0, 200, n)]),
            "field": pd.Categorical(field),
            "outcome": pd.Categorical.from_codes(outcome, categories=list(OUTCOMES)),
            "weight": np.ones(n),
            "score": np.zeros(n),
            "confidence": np.full(n, np.nan),
        }
    )


def test_empty_columns_match_the_definition() -> None:
    for seed in range(4):
        cells = _cells(seed)
        for baseline, candidates in (("v1", ["v2", "v3", "unused"]), ("v3", ["v2"])):
            got = empty_columns(cells, baseline, candidates)
            want = _reference(cells, baseline, candidates)
            pd.testing.assert_frame_equal(got, want, check_dtype=False)
        assert "c" in set(empty_columns(cells, "v1", ["v2"])["field"])


def test_plain_string_keys_work_too() -> None:
    cells = _cells(9)
    plain = cells.assign(**{k: cells[k].astype(str) for k in ("version", "item", "field")})
    pd.testing.assert_frame_equal(
        empty_columns(plain, "v1", ["v2"]), empty_columns(cells, "v1", ["v2"])
    )
