"""compare's (document, field) units: the worst cell decides, a unit without cells in a version
is ok there; the report's units and the flips frame are the same units."""

from __future__ import annotations

import pandas as pd
import pytest

from fieldwise.compare import OUTCOMES, unit_outcomes
from fieldwise.compare.stats._units import flip_units


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


def test_flips_are_the_units_by_field_then_item() -> None:
    flips = flip_units(_cells(), "v1", "v2")
    assert flips[["field", "item"]].astype(str).values.tolist() == [
        ["lines", "d1"],
        ["total", "d1"],
        ["total", "d2"],
    ]
    assert flips["transition"].tolist() == ["regressed", "fixed", "both_right"]


def test_an_unknown_outcome_is_refused() -> None:
    cells = _cells().assign(outcome=["correct"] * 6 + ["maybe"])
    with pytest.raises(ValueError, match="outside"):
        unit_outcomes(cells, "v1", "v2")
