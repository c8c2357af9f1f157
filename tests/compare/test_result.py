"""The result object, the terminal table, Parquet round trip and the public names.

Two documents, two versions. v1: doc1 total "529,87" correct, doc1 date "05.03.2018" correct,
doc2 total 11 wrong (10 expected). v2: doc1 total correct, doc1 date missed, doc2 total correct.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import fieldwise.compare as compare_pkg
from fieldwise._errors import CompareError
from fieldwise.cli._compare_table import render_table
from fieldwise.compare import (
    FRAME_NAMES,
    build_frame,
    compare,
    parse_field_specs,
    read_frames,
    write_frames,
)

TRUTH: dict[str, dict[str, Any]] = {
    "doc1": {"total": 529.87, "date": "2018-03-05"},
    "doc2": {"total": 10.0},
}
PREDICTIONS = {
    "v1": {
        "doc1": {
            "value": {"total": "529,87", "date": "05.03.2018"},
            "metadata": {"total": {"confidence": 0.99}, "date": {"confidence": 0.8}},
        },
        "doc2": {"value": {"total": 11}, "metadata": {"total": {"confidence": 0.4}}},
    },
    "v2": {
        "doc1": {"value": {"total": 529.87}, "metadata": {"total": {"confidence": 0.97}}},
        "doc2": {"value": {"total": "10,00"}, "metadata": {"total": {"confidence": 0.96}}},
    },
}
SPECS = parse_field_specs(
    {"total": {"type": "currency", "critical": True}, "date": {"type": "date"}}, date_order="DMY"
)


def result() -> compare_pkg.ComparisonResult:
    return compare(
        build_frame(TRUTH, PREDICTIONS), SPECS, baseline="v1", candidate="v2", n_bootstrap=100
    )


def test_result_is_frozen_with_plain_figures() -> None:
    r = result()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.baseline = "x"  # type: ignore[misc]
    for value in (r.accuracy_baseline, r.accuracy_candidate, r.delta, r.recommended_threshold):
        assert type(value) is float
    assert r.accuracy_baseline == pytest.approx(2 / 3)
    assert r.accuracy_candidate == pytest.approx(2 / 3)
    assert r.recommended_threshold == 0.96
    assert list(r.frames()) == list(FRAME_NAMES)


def test_render_table() -> None:
    text = render_table(result())
    lines = text.splitlines()
    assert lines[0].split() == [
        "field",
        "type",
        "support",
        "v1",
        "v2",
        "delta(pp)",
        "regressed",
        "fixed",
        "p(holm)",
        "MDE(pp)",
        "flag",
    ]
    # every column has a header
    assert len(lines[0].split()) == len(lines[1].split())
    # p-values read alike: three decimals, "<0.001" below that
    end = lines[0].index("p(holm)") + len("p(holm)")  # right-aligned column
    p_values = [line[:end].split()[-1] for line in lines[2:4]]
    assert all(re.fullmatch(r"<0\.001|\d\.\d{3}", p) for p in p_values), p_values
    # regressions first: date drops from 100% to 0%
    assert lines[2].split()[:6] == ["date", "date", "1", "100.0%", "0.0%", "-100.0"]
    assert lines[3].split()[:7] == ["total", "currency", "*", "2", "50.0%", "100.0%", "+50.0"]
    assert "recommended confidence_threshold: 0.960" in text
    assert render_table(result()) == text


def test_single_version_table() -> None:
    r = compare(build_frame(TRUTH, PREDICTIONS), SPECS, baseline="v1")
    assert r.candidate is None
    assert r.bootstrap is None
    assert r.flips.empty
    header = render_table(r).splitlines()[0].split()
    assert header[:5] == ["field", "type", "support", "field", "acc"]


def test_parquet_round_trip(tmp_path: Path) -> None:
    r = result()
    paths = write_frames(r, tmp_path / "out")
    assert [p.name for p in paths] == [f"{n}.parquet" for n in FRAME_NAMES]
    frames = read_frames(tmp_path / "out")
    assert frames["fields"]["accuracy"].tolist() == pytest.approx(r.fields["accuracy"].tolist())
    cells = frames["cells"]
    assert cells["predicted"].dropna().tolist()[:2] == ["05.03.2018", "529,87"]
    assert frames["cells"]["expected"].tolist() == r.cells["expected"].tolist()
    stored = pd.read_parquet(tmp_path / "out" / "cells.parquet")
    # strings are stored as they are, never as JSON text ('"EUR"')
    assert stored["predicted"].dropna().tolist()[:2] == ["05.03.2018", "529,87"]
    assert set(stored["predicted_kind"].dropna()) <= {"string", "number", "boolean", "object"}


def test_parquet_keeps_numbers_and_booleans_typed(tmp_path: Path) -> None:
    truth = {"a": {"n": 3, "ok": True, "s": "EUR"}, "b": {"n": 2.5, "ok": False, "s": "USD"}}
    outputs = {"v1": {d: {"value": v} for d, v in truth.items()}}
    r = compare(build_frame(truth, outputs), {}, baseline="v1")
    write_frames(r, tmp_path / "out")
    stored = pd.read_parquet(tmp_path / "out" / "cells.parquet").set_index("field")
    assert stored.loc["n", "expected_number"].tolist() == [3.0, 2.5]
    assert stored.loc["ok", "expected_boolean"].tolist() == [True, False]
    assert stored.loc["s", "expected"].tolist() == ["EUR", "USD"]
    back = read_frames(tmp_path / "out")["cells"].set_index("field")
    assert back.loc["n", "expected"].tolist() == [3, 2.5]
    assert back.loc["ok", "expected"].tolist() == [True, False]


def test_unknown_version() -> None:
    with pytest.raises(CompareError, match="'v9' is not in the comparison frame"):
        compare(build_frame(TRUTH, PREDICTIONS), SPECS, baseline="v9")


def test_all_is_sorted_and_complete() -> None:
    names = compare_pkg.__all__
    assert names == sorted(names, key=lambda n: (not n.isupper(), n[0].islower(), n))
    for name in names:
        assert hasattr(compare_pkg, name)


def test_write_into_a_file_path_is_a_compare_error(tmp_path: Path) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("not a directory")
    with pytest.raises(CompareError, match="cannot write comparison frames"):
        write_frames(result(), blocker)


def test_compare_is_pure_and_deterministic() -> None:
    frame = build_frame(TRUTH, PREDICTIONS)
    before = frame.copy()
    one, two = result(), compare(frame, SPECS, baseline="v1", candidate="v2", n_bootstrap=100)
    pd.testing.assert_frame_equal(frame, before)
    for name in FRAME_NAMES:
        pd.testing.assert_frame_equal(getattr(one, name), getattr(two, name))
    assert one.bootstrap == two.bootstrap


def test_three_versions_give_two_comparisons_and_a_three_column_table() -> None:
    predictions = {**PREDICTIONS, "v3": PREDICTIONS["v1"]}
    frame = build_frame(TRUTH, predictions)
    r = compare(frame, SPECS, baseline="v1", candidates=["v2", "v3"], n_bootstrap=20)
    assert r.candidates == ("v2", "v3")
    assert sorted(set(r.significance["candidate"])) == ["v2", "v3"]
    lines = render_table(r).splitlines()
    assert lines[0].split() == ["field", "type", "support", "v1", "v2", "v3"]
    assert lines[2].split()[3:] == ["100.0%", "0.0%", "100.0%"]  # date in each version
    assert "v2 vs v1:" in lines
    assert "v3 vs v1:" in lines
    pair = r.for_candidate("v3")
    assert pair.candidates == ("v3",)
    assert set(pair.fields["version"]) == {"v1", "v3"}
    assert pair.delta == r.bootstraps["v3"].delta == 0.0


def test_render_table_names_versions_by_label() -> None:
    r = result()
    text = render_table(r, {"v1": "published", "v2": "latest-draft"})
    assert text.splitlines()[0].split()[3:5] == ["published", "latest-draft"]
    assert "published (v1): field accuracy" in text
    # two versions with one label: the ids, so the columns stay distinct
    same = render_table(r, {"v1": "x", "v2": "x"})
    assert same.splitlines()[0].split()[3:5] == ["v1", "v2"]


def test_plain_columns_compare_as_their_dataframe() -> None:
    """``compare`` of plain columns (lists) gives every table of ``compare`` of
    ``pd.DataFrame(columns)``: keys of strings are categoricals built by one factorize,
    others (numbers, None) the DataFrame's way."""
    frame = build_frame(TRUTH, {**PREDICTIONS, "v3": PREDICTIONS["v1"]})
    columns: dict[str, list[Any]] = {name: frame[name].tolist() for name in frame.columns}
    for name in ("item", "field", "version"):
        assert all(type(v) is str for v in columns[name])
    for cols in (
        columns,
        {**columns, "item": [len(str(v)) * 10 + i % 3 for i, v in enumerate(columns["item"])]},
    ):
        want = compare(pd.DataFrame(cols), SPECS, baseline="v1", candidates=["v2", "v3"])
        got = compare(cols, SPECS, baseline="v1", candidates=["v2", "v3"])
        for name in FRAME_NAMES:
            pd.testing.assert_frame_equal(getattr(got, name), getattr(want, name))
        assert got.bootstraps == want.bootstraps
        assert got.recommended_threshold == want.recommended_threshold


def test_plain_key_columns_are_the_dataframes_categoricals() -> None:
    from fieldwise.compare.score._frame import _category, columns_frame

    cases: list[list[Any]] = [
        ["b", "a", "Ä", "z", "é", "😀", "a", "A", "a b", "ab"],
        [3, 1, 2, 1],
        ["a", None, "b"],
        ["a", 1],
        [1.5, float("nan")],
        [("a", 1), ("a", 1), ("b",)],  # each tuple one value, not a row of an array
        # around each width the codes are kept in (int8 below 127 categories, then int16,
        # int32): the narrow ranks give the categorical's own codes
        *([f"k{i:06d}" for i in range(n)][::-1] * 2 for n in (126, 127, 128, 32766, 32767)),
    ]
    for values in cases:
        want = pd.Series(values).astype("category").array
        got = _category(values)
        pd.testing.assert_extension_array_equal(got, want)
        pd.testing.assert_index_equal(got.categories, want.categories)  # same order too
        assert got.codes.dtype == want.codes.dtype
        assert got.codes.tolist() == want.codes.tolist()
    with pytest.raises(CompareError, match="comparison columns"):
        columns_frame({"item": ["a", "b"], "field": ["x"]})


def test_keys_in_long_runs_are_the_dataframes_categoricals() -> None:
    """Keys factorized one run of equal neighbours at a time (a frame ordered by version and
    field) give the categorical of every value hashed; columns whose runs turn short after
    the sample, or that hold a value of another type, take the hashing way."""
    import numpy as np

    from fieldwise.compare.score._frame import _RUN, _RUN_SAMPLE, _category, _string_runs

    runs = ["v2"] * 5000 + ["v1"] * 3000 + ["é"] * 40 + ["v2"] * 700 + ["a"] * 33
    short_after = ["x"] * _RUN_SAMPLE + [f"k{i % 7}" for i in range(5000)]
    mixed = ["x"] * 5000 + [1] + ["x"] * 10
    missing = ["x"] * 5000 + [None] + ["x"] * 10
    assert _string_runs(np.array(runs, dtype=object)) is not None
    for values in (runs, short_after, mixed, missing, ["a"] * (2 * _RUN), ["b"] * 3):
        if values in (short_after, mixed, missing):
            assert _string_runs(np.array(values, dtype=object)) is None
        want = pd.Series(values).astype("category").array
        got = _category(values)
        pd.testing.assert_extension_array_equal(got, want)
        assert got.codes.dtype == want.codes.dtype
        assert got.codes.tolist() == want.codes.tolist()


def test_plain_value_columns_are_the_dataframes_columns() -> None:
    """Value columns of plain lists are read in one pass when mixed (or all floats): every
    column is the one ``pd.DataFrame`` infers, with the same dtype and values."""
    import datetime as dt
    from decimal import Decimal

    import numpy as np

    from fieldwise.compare.score._frame import columns_frame

    nan = float("nan")
    cases: list[list[Any]] = [
        ["a", 1.5, None, True, nan],
        ["a", 1.5],
        [1.5, "a", [1, 2], {"x": 1}],
        [True, "ja"],
        [1.5, True],
        [1, "a"],
        [1, 2.5],
        [1.5, 2.5, nan],
        [1.5, None],
        [np.float32(1.5), 2.0],
        [np.float64(1.5), 2.0],
        ["a", None],
        ["a", nan],
        ["a", pd.NA],
        [None, None],
        [True, False],
        [1, 2],
        [dt.date(2020, 1, 2), "2020-01-02"],
        [dt.datetime(2020, 1, 2), None],
        [Decimal("1.5"), "a"],
        [Decimal("1.5"), Decimal("2")],
        [b"a", "a"],
    ]
    for values in cases:
        n = len(values)
        cols: dict[str, list[Any]] = {
            "item": [f"d{i}" for i in range(n)],
            "field": ["f"] * n,
            "version": ["v1"] * n,
            "expected": values,
            "predicted": values[::-1],
            "confidence": [0.5] * n,
        }
        got, want = columns_frame(cols), pd.DataFrame(cols)
        for name in ("expected", "predicted", "confidence"):
            pd.testing.assert_series_equal(got[name], want[name], obj=f"{name} of {values!r}")
            for a, b in zip(got[name].tolist(), want[name].tolist(), strict=True):
                assert type(a) is type(b), (name, values)
    # columns that are not lists, or lists of several lengths, take the DataFrame's way
    with pytest.raises(CompareError, match="comparison columns"):
        columns_frame({"expected": ["a", 1.5], "predicted": ["a", 1.5, 2.0]})
    series = pd.Series(["a", 1.5], index=[1, 0], dtype=object)
    pd.testing.assert_series_equal(
        columns_frame({"expected": series, "predicted": ["x", 2.0]})["expected"],
        pd.DataFrame({"expected": series, "predicted": ["x", 2.0]})["expected"],
    )
