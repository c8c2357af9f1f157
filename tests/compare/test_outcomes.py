"""Outcomes per cell and line-item alignment, on tiny hand-built frames.

Item "d1", version "v": total 10 vs "10,00" -> correct; name "ACME" vs "Acme Ltd" -> wrong;
iban "DE12" vs nothing -> missed; note nothing vs "hello" -> spurious; po "" vs None -> both_empty.

Line items (item "d2"): expected rows [apple 1.50, pear 2.00, plum 3.00]; predicted the same rows
permuted as [plum 3.00, apple 1.50, pear 2.00] -> every cell correct; a second version predicts
[pear 2.00, plums 9.99, apple 1.50, fig 4.00] -> apple and pear correct; plums pairs with plum
(similarity 0.89 < 0.9: description wrong, 3.00 vs 9.99 wrong); fig has nothing in common with
any row, so its two cells are spurious; the row count 3 vs 4 is flagged.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from fieldwise._errors import CompareError
from fieldwise.compare import parse_field_specs, score_cells
from fieldwise.compare.score._frame import FRAME_COLUMNS, validate_frame
from fieldwise.compare.score._outcomes import cell_specs

SPECS = parse_field_specs(
    {
        "total": {"type": "number"},
        "items": {
            "type": "array",
            "columns": {"desc": {"type": "text"}, "amount": {"type": "currency"}},
        },
    }
)


def frame(rows: list[tuple[Any, ...]]) -> pd.DataFrame:
    out = pd.DataFrame(rows, columns=list(FRAME_COLUMNS))
    out[["expected", "predicted"]] = out[["expected", "predicted"]].astype(object)
    return out


def test_each_outcome() -> None:
    cells, _, _ = score_cells(
        frame(
            [
                ("d1", "total", "v", 10, "10,00", 0.9),
                ("d1", "name", "v", "ACME", "Acme Ltd", 0.8),
                ("d1", "iban", "v", "DE12", None, None),
                ("d1", "note", "v", None, "hello", 0.3),
                ("d1", "po", "v", "", None, None),
            ]
        ),
        SPECS,
    )
    got = dict(zip(cells["field"], cells["outcome"].astype(str), strict=True))
    assert got == {
        "total": "correct",
        "name": "wrong",
        "iban": "missed",
        "note": "spurious",
        "po": "both_empty",
    }


EXPECTED = [
    {"desc": "apple", "amount": 1.5},
    {"desc": "pear", "amount": 2.0},
    {"desc": "plum", "amount": 3.0},
]


def test_line_items_permutation_is_all_correct() -> None:
    permuted = [EXPECTED[2], EXPECTED[0], {"desc": "Pear", "amount": "2,00"}]
    cells, counts, _ = score_cells(frame([("d2", "items", "v", EXPECTED, permuted, 0.5)]), SPECS)
    assert set(cells["outcome"].astype(str)) == {"correct"}
    assert sorted(cells["field"].unique()) == ["items[].amount", "items[].desc"]
    assert cells["row"].tolist() == [0, 1, 2, 0, 1, 2]
    assert counts[["expected_rows", "predicted_rows", "matched_rows"]].values.tolist() == [
        [3, 3, 3]
    ]
    assert not counts["row_count_mismatch"].any()


def test_line_items_unmatched_and_row_count_mismatch() -> None:
    predicted = [
        {"desc": "pear", "amount": 2.0},
        {"desc": "plums", "amount": 9.99},
        {"desc": "apple", "amount": 1.5},
        {"desc": "fig", "amount": 4.0},
    ]
    cells, counts, _ = score_cells(frame([("d2", "items", "v", EXPECTED, predicted, 0.5)]), SPECS)
    by = {
        (f, r): o
        for f, r, o in zip(cells["field"], cells["row"], cells["outcome"].astype(str), strict=True)
    }
    assert by[("items[].desc", 0)] == "correct"
    assert by[("items[].desc", 1)] == "correct"
    # the leftover predicted row (fig, index 3) is spurious and keeps a negative row number
    spurious = cells.loc[cells["outcome"] == "spurious"]
    assert len(spurious) == 2
    assert spurious["row"].tolist() == [-4, -4]
    assert by[("items[].desc", 2)] == "wrong"
    assert by[("items[].amount", 2)] == "wrong"
    assert counts["row_count_mismatch"].tolist() == [True]
    assert counts[["expected_rows", "predicted_rows", "matched_rows"]].values.tolist() == [
        [3, 4, 3]
    ]


def test_line_items_missing_prediction_is_missed() -> None:
    cells, counts, _ = score_cells(frame([("d2", "items", "v", EXPECTED, None, None)]), SPECS)
    assert set(cells["outcome"].astype(str)) == {"missed"}
    assert len(cells) == 6
    assert counts["matched_rows"].tolist() == [0]


def test_rows_with_nothing_in_common_are_not_paired() -> None:
    cells, counts, _ = score_cells(
        frame(
            [
                (
                    "d2",
                    "items",
                    "v",
                    [{"desc": "apple", "amount": 1}],
                    [{"desc": "zzzzz", "amount": 7}],
                    None,
                )
            ]
        ),
        SPECS,
    )
    assert counts["matched_rows"].tolist() == [0]
    assert sorted(cells["outcome"].astype(str)) == ["missed", "missed", "spurious", "spurious"]


def test_duplicate_rows_are_rejected() -> None:
    rows = [("d1", "total", "v", 1, 1, None), ("d1", "total", "v", 1, 2, None)]
    with pytest.raises(CompareError, match="duplicate"):
        score_cells(frame(rows), SPECS)


def test_missing_column_is_rejected() -> None:
    with pytest.raises(CompareError, match="lacks column"):
        score_cells(frame([("d1", "total", "v", 1, 1, None)]).drop(columns="confidence"), SPECS)


def test_array_columns_inherit_critical() -> None:
    specs = parse_field_specs(
        {
            "items": {
                "type": "array",
                "critical": True,
                "weight": 2.0,
                "columns": {"amount": {"type": "number"}},
            }
        }
    )
    resolved = cell_specs(["items[].amount", "items[].desc", "other"], specs)
    assert resolved["items[].amount"].critical
    assert resolved["items[].amount"].type == "number"
    assert resolved["items[].desc"].type == "string"
    assert resolved["items[].desc"].critical
    assert not resolved["other"].critical


def test_duplicate_rows_in_a_sparse_frame_are_rejected() -> None:
    """1,000 items with a field of their own: too sparse to count densely, checked by hashing."""
    rows = [(f"d{i}", f"f{i}", "v", 1, 1, None) for i in range(1000)]
    validate_frame(frame(rows))
    with pytest.raises(CompareError, match="duplicate"):
        validate_frame(frame([*rows, rows[500]]))


@pytest.mark.parametrize("seed", range(20))
def test_dense_duplicate_check_agrees_with_the_keys(seed: int) -> None:
    """The dense check (one mark per possible key, built in place from the narrow codes)
    rejects a frame exactly when an (item, field, version) repeats, missing keys included."""
    import itertools
    import random

    rng = random.Random(seed)
    every = list(itertools.product(["d1", "d2", "d3", None], ["a", "b", None], ["v", "w"]))
    keys = rng.sample(every, rng.randrange(len(every) + 1))
    repeat = bool(keys) and seed % 2 == 0
    if repeat:
        keys.insert(rng.randrange(len(keys) + 1), rng.choice(keys))
    rows = [(i, f, v, 1, 1, None) for i, f, v in keys]
    if repeat:
        with pytest.raises(CompareError, match="duplicate"):
            validate_frame(frame(rows))
    else:
        validate_frame(frame(rows))


def test_fields_scored_on_threads_give_the_same_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fields scored side by side on threads (large frames) give exactly the cells of one
    field after another, each result at its own field's cells."""
    import fieldwise.compare.score._outcomes as outcomes

    specs = parse_field_specs(
        {
            "number": {"type": "string"},
            "date": {"type": "date"},
            "total": {"type": "currency"},
            "qty": {"type": "number", "atol": 0.5},
            "name": {"type": "text", "threshold": 0.8},
            "paid": {"type": "boolean"},
        }
    )
    values = {
        "number": [("INV-1", "inv 1"), ("INV-2", "INV-3"), (None, "x")],
        "date": [("2020-03-05", "05.03.2020"), ("2020-03-05", "2020-05-03"), ("2021-01-01", None)],
        "total": [(12.5, "€ 12,50"), (10.0, "10.40 EUR"), (None, None)],
        "qty": [(3.0, "3"), (4.0, "4.4"), (5.0, "7")],
        "name": [("Acme GmbH", "ACME GmbH"), ("Acme GmbH", "Acme"), ("Nord AG", "Nord AG")],
        "paid": [(True, "ja"), (False, "yes"), (True, None)],
        "notes": [("a", "A"), ("b", "c"), ("", None)],  # no spec: folded strings
    }
    rows = [
        (f"doc-{k}-{i}", field, version, e, p, 0.9)
        for field, pairs in values.items()
        for version in ("v1", "v2")
        for k in range(20)
        for i, (e, p) in enumerate(pairs if version == "v1" else pairs[::-1])
    ]
    big = frame(rows)
    monkeypatch.setattr(outcomes, "PARALLEL_CELLS", 1 << 40)
    one_by_one, counts, resolved = score_cells(big, specs)
    monkeypatch.setattr(outcomes, "PARALLEL_CELLS", 0)
    threaded, counts_t, resolved_t = score_cells(big, specs)
    pd.testing.assert_frame_equal(threaded, one_by_one)
    pd.testing.assert_frame_equal(counts_t, counts)
    assert resolved_t == resolved
    assert set(one_by_one["outcome"]) == {"correct", "wrong", "missed", "spurious", "both_empty"}
