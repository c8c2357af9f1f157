"""compare's (document, field) units as the report lists them: the worst cell decides, a unit
without cells in a version is ok there, and ok is what the flip counts use."""

from __future__ import annotations

import pandas as pd
import pytest

from fieldwise.compare import OUTCOMES, unit_outcomes
from fieldwise.compare.stats._paired import flip_units


def _cells() -> pd.DataFrame:
    rows = [
        # (version, item, field, outcome): d1's line-item column has one wrong row in v2
        ("v1", "d1", "lines", "correct"),
        ("v1", "d1", "lines", "correct"),
        ("v2", "d1", "lines", "correct"),
        ("v2", "d1", "lines", "wrong"),
        ("v1", "d1", "total", "missed"),
        ("v2", "d1", "total", "correct"),
        ("v1", "d2", "total", "both_empty"),  # no v2 cell: absent, so ok
    ]
    return pd.DataFrame(rows, columns=["version", "item", "field", "outcome"])


def test_the_worst_cell_decides_and_absent_is_ok() -> None:
    cells = _cells()
    found = unit_outcomes(cells, "v1", "v2")
    assert found.items == ["d1", "d2"]
    assert found.fields == ["lines", "total"]
    assert found.key.tolist() == [0, 1, 3]
    names = [*OUTCOMES, "absent"]
    assert [names[c] for c in found.code_baseline] == ["correct", "missed", "both_empty"]
    assert [names[c] for c in found.code_candidate] == ["wrong", "correct", "absent"]
    assert found.cell_candidate.tolist() == [3, 5, -1]  # the wrong row, not the first one
    assert found.ok_baseline.tolist() == [True, False, True]
    assert found.ok_candidate.tolist() == [False, True, True]


def test_ok_is_the_flip_counts_ok() -> None:
    cells = _cells()
    found = unit_outcomes(cells, "v1", "v2")
    flips = flip_units(cells, "v1", "v2").sort_values(["item", "field"])
    assert flips["ok_baseline"].tolist() == found.ok_baseline.tolist()
    assert flips["ok_candidate"].tolist() == found.ok_candidate.tolist()


def test_an_unknown_outcome_is_refused() -> None:
    cells = _cells().assign(outcome=["correct"] * 6 + ["maybe"])
    with pytest.raises(ValueError, match="outside"):
        unit_outcomes(cells, "v1", "v2")
