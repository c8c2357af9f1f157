"""The column-wise scoring (factorized, Arrow kernels, vectorized amounts and dates, wide frames
column by column) gives, cell for cell, what the plain per-cell definition gives.

The reference below is the old path written out: every cell through the scalar normalizers
and the comparator's rule, one at a time. It lives here, not in src, so the fast code cannot
share a bug with it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
import pytest
from rapidfuzz import fuzz

import fieldwise
from fieldwise.compare import (
    FieldSpec,
    parse_bool,
    parse_currency,
    parse_date,
    parse_field_specs,
    parse_number,
    score_cells,
)
from fieldwise.compare.score._normalize import Unparsed, normalize_text

FIELDS = {
    "code": {"type": "string", "ignore_punctuation": True},
    "name_cs": {"type": "string", "case_sensitive": True, "ignore_spaces": True},
    "address": {"type": "string", "fold_lines": True},
    "seller": {"type": "text", "threshold": 0.8},
    "count": {"type": "number", "atol": 0.5},
    "ratio": {"type": "number", "rtol": 0.01},
    "total": {"type": "currency"},
    "net": {"type": "currency", "currency_required": True},
    "issued": {"type": "date", "date_order": "DMY"},
    "due": {"type": "date", "date_order": "MDY"},
    "kind": {"type": "enum", "values": ["Invoice", "Credit note"]},
    "paid": {"type": "boolean"},
}

_POOLS: dict[str, list[Any]] = {
    "code": ["INV-001", "inv001", "INV 001", "A.B", "ab", "", None, 7, 7.0],
    "name_cs": ["Acme GmbH", "AcmeGmbH", "acme gmbh", " Acme  GmbH ", None, "Ünïcode", "ＡＢＣ"],
    "address": ["1 Main St,\nLeeds", "1 Main St\nLeeds", "1 Main St, Leeds", "Leeds", None],
    "seller": ["Acme GmbH", "Acme GmbHx", "ACME GMBH", "Acme", "Nordwind AG", None, "", 12],
    "count": [1, 1.0, "1", "1.4", "2", np.int64(3), np.float64(2.6), "x", None, True, "1,5"],
    "ratio": [100, 100.9, "101.5", "1.000,00", "(100)", -100, "-100", math.nan, "1e2", None],
    "total": [
        "€ 1.234,50",
        "1,234.50 EUR",
        1234.5,
        "1234.50",
        "$1,234.50",
        {"amount": "1234.5", "currency": "USD"},
        "USD 1234.5",
        "n/a",
        None,
        "(12.00)",
        -12,
        "12.004",
    ],
    "issued": ["2024-03-05", "05.03.2024", "5/3/24", "March 5, 2024", "5 Mar 2024", "32.01.2024"],
    "due": ["2024-03-05", "03/05/2024", "5/3/2024", "5th March 2024", "Mar 5, 2024", None, "soon"],
    "kind": ["Invoice", "invoice", "INVOICE", "credit note", "Credit Note", "other", None],
    "paid": [True, False, "yes", "nein", "x", "1", 0, 1.0, "maybe", None, ""],
}
_POOLS["net"] = _POOLS["total"]


def _frame(seed: int, documents: int = 80) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for version in ("v1", "v2"):
        for d in range(documents):
            for field, pool in _POOLS.items():
                e, p = (pool[int(i)] for i in rng.integers(0, len(pool), 2))
                if rng.random() < 0.3:
                    p = e
                rows.append((f"d{d:03d}", field, version, e, p, float(rng.random())))
    frame = pd.DataFrame(
        rows, columns=["item", "field", "version", "expected", "predicted", "confidence"]
    )
    for column in ("expected", "predicted"):
        frame[column] = frame[column].astype(object)
    return frame


def _text(spec: FieldSpec, value: Any) -> str | None:
    return normalize_text(
        value,
        case_sensitive=spec.case_sensitive,
        normalize_whitespace=spec.normalize_whitespace,
        ignore_punctuation=spec.ignore_punctuation,
        ignore_spaces=spec.ignore_spaces,
        fold_lines=spec.fold_lines,
    )


def _amount(spec: FieldSpec, value: Any) -> tuple[Any, Any]:
    if spec.type == "currency":
        return parse_currency(value)
    return parse_number(value), None


def _reference(spec: FieldSpec, expected: Any, predicted: Any) -> tuple[str, float]:
    """(outcome, score) of one cell by the comparator's definition."""
    score: float | None = None
    if spec.type in ("number", "currency"):
        (a, code_a), (b, code_b) = _amount(spec, expected), _amount(spec, predicted)
        left, right = a, b
        if isinstance(a, float) and isinstance(b, float):
            tolerance = spec.atol + spec.rtol * abs(a) + 1e-12 * abs(a)
            match = abs(a - b) <= tolerance
        else:
            match = isinstance(a, Unparsed) and isinstance(b, Unparsed) and a == b
        if spec.type == "currency" and spec.currency_required:
            match = match and code_a == code_b
    elif spec.type == "text":
        left, right = _text(spec, expected), _text(spec, predicted)
        if left is not None and right is not None:
            score = fuzz.ratio(left, right) / 100.0
        match = score is not None and score >= spec.threshold - 1e-12
    elif spec.type == "date":
        left = parse_date(expected, date_order=spec.date_order)
        right = parse_date(predicted, date_order=spec.date_order)
        match = left == right
    elif spec.type == "boolean":
        left, right = parse_bool(expected), parse_bool(predicted)
        match = type(left) is type(right) and left == right
    elif spec.type == "enum":
        canon = {normalize_text(v, case_sensitive=spec.case_sensitive): v for v in spec.values}
        fold = [
            normalize_text(v, case_sensitive=spec.case_sensitive) for v in (expected, predicted)
        ]
        left, right = (None if t is None else canon.get(t, t) for t in fold)
        match = left == right
    else:
        left, right = _text(spec, expected), _text(spec, predicted)
        match = left == right
    if left is None and right is None:
        return "both_empty", 1.0
    if left is None:
        return "spurious", 0.0
    if right is None:
        return "missed", 0.0
    if score is None:
        score = 1.0 if match else 0.0
    return ("correct" if match else "wrong"), score


@pytest.mark.parametrize("seed", [0, 1])
def test_columnwise_cells_are_the_per_cell_definition(seed: int) -> None:
    frame = _frame(seed)
    specs = parse_field_specs(FIELDS)
    cells, _, _ = score_cells(frame, specs)
    assert len(cells) == len(frame)
    want = [
        _reference(specs[f], e, p)
        for f, e, p in zip(frame["field"], frame["expected"], frame["predicted"], strict=True)
    ]
    got = list(zip(cells["outcome"].astype(str), cells["score"], strict=True))
    diffs = [
        (f, e, p, w, g)
        for f, e, p, w, g in zip(
            frame["field"], frame["expected"], frame["predicted"], want, got, strict=True
        )
        if w[0] != g[0] or not math.isclose(w[1], g[1], abs_tol=1e-12)
    ]
    assert diffs == []
    assert set(cells["field"].astype(str)) == set(FIELDS)  # every comparator was exercised


def test_wide_frames_score_like_the_definition() -> None:
    rng = np.random.default_rng(5)
    pools = {k: v for k, v in _POOLS.items() if k not in ("total", "net")}  # no dict cells
    truth = pd.DataFrame({"document": [f"d{i}" for i in range(50)]})
    pred = truth.copy()
    for field, pool in pools.items():
        values = np.empty(50, dtype=object)
        values[:] = [pool[int(i)] for i in rng.integers(0, len(pool), 50)]
        truth[field] = values
        values = values.copy()
        for i in np.flatnonzero(rng.random(50) < 0.5):
            values[i] = pool[int(rng.integers(0, len(pool)))]
        pred[field] = values
    specs = parse_field_specs({k: FIELDS[k] for k in pools})
    result = fieldwise.compare(truth, {"pred": pred}, specs)
    for row in result.cells.itertuples():
        assert (row.outcome, pytest.approx(row.score)) == _reference(
            specs[str(row.field)], row.expected, row.predicted
        )


def _wide_column(pool: list[Any], picks: np.ndarray, dtype: str) -> pd.Series:
    values = [pool[int(i)] for i in picks]
    if dtype == "str":  # Arrow-backed strings, as read from Parquet
        return pd.Series([v if isinstance(v, str) else None for v in values], dtype="str")
    if dtype == "float":
        return pd.Series([float(v) if isinstance(v, int | float) else np.nan for v in values])
    if dtype == "int":
        return pd.Series([int(v) if isinstance(v, int | float) and v == v else 0 for v in values])
    column = np.empty(len(values), dtype=object)
    column[:] = values
    return pd.Series(column, dtype=object)


# every comparator, over every kind of column a wide frame may hold
_WIDE_COLUMNS = {
    "code": "str",
    "name_cs": "object",
    "address": "str",
    "seller": "str",
    "count": "int",
    "ratio": "float",
    "total": "str",
    "net": "float",
    "issued": "str",
    "due": "object",
    "kind": "str",
    "paid": "object",
}


def _wide_pair(seed: int, documents: int = 120) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    rng = np.random.default_rng(seed)
    ids = [f"doc-{i:04d}" for i in rng.permutation(documents)]
    truth = pd.DataFrame({"document": ids})
    for field, dtype in _WIDE_COLUMNS.items():
        pool = [v for v in _POOLS[field] if not isinstance(v, dict)]
        truth[field] = _wide_column(pool, rng.integers(0, len(pool), documents), dtype)
    truth["only_truth"] = pd.Series(rng.choice(["a", "b", None], documents), dtype="str")
    predictions = {}
    for version in ("v1", "v2", "v3"):
        kept = np.sort(rng.choice(documents, documents - 7, replace=False))  # some missing
        frame = truth.iloc[kept].reset_index(drop=True).copy()
        for field, dtype in _WIDE_COLUMNS.items():
            pool = [v for v in _POOLS[field] if not isinstance(v, dict)]
            fresh = _wide_column(pool, rng.integers(0, len(pool), len(frame)), dtype)
            change = rng.random(len(frame)) < 0.4
            frame[field] = frame[field].where(~change, fresh.astype(frame[field].dtype))
        frame = frame.drop(columns="only_truth").sample(frac=1.0, random_state=seed)
        frame["flag"] = rng.random(len(frame)) < 0.5  # a field only predicted, bool dtype
        predictions[version] = frame
    return truth, predictions


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_columnwise_compare_equals_the_long_path(seed: int) -> None:
    """Wide frames scored column by column give every frame (cells first) and figure the
    long path gives for the same data: nested mappings -> build_frame -> score_cells."""
    from fieldwise.compare import build_frame, compare
    from fieldwise.compare.score._columnwise import wide_columns
    from fieldwise.compare.score._inputs import as_outputs, as_truth

    truth, predictions = _wide_pair(seed)
    specs = parse_field_specs({**FIELDS, "flag": {"type": "boolean"}})
    assert wide_columns(truth, predictions) is not None  # the column-wise path is taken
    new = fieldwise.compare(truth, predictions, specs, baseline="v2", seed=seed)
    frame = build_frame(as_truth(truth), {v: as_outputs(p) for v, p in predictions.items()})
    old = compare(frame, specs, baseline="v2", candidates=("v1", "v3"), seed=seed)
    assert new.candidates == old.candidates == ("v1", "v3")
    for name, got in new.frames().items():
        pd.testing.assert_frame_equal(got, old.frames()[name], obj=name)
    assert set(new.cells["field"].astype(str)) == {*FIELDS, "flag", "only_truth"}
    assert new.bootstraps == old.bootstraps
    assert (new.delta, new.warnings, new.recommended_threshold) == (
        old.delta,
        old.warnings,
        old.recommended_threshold,
    )
    pair = new.for_candidate("v3")
    pd.testing.assert_frame_equal(pair.cells, old.for_candidate("v3").cells)


def test_columnwise_compare_with_every_cell_present() -> None:
    """Every (document, field) has a value on both sides (no cell is left out)."""
    from fieldwise.compare import build_frame, compare
    from fieldwise.compare.score._inputs import as_outputs, as_truth

    rng = np.random.default_rng(9)
    words = pd.Series(rng.choice(["Acme", "acme", "Nordwind AG", "x"], 40), dtype="str")
    truth = pd.DataFrame({"document": np.arange(40), "name": words, "total": rng.random(40)})
    pred = truth.assign(name=words.sample(frac=1.0, random_state=1).to_numpy())
    pred["total"] = truth["total"] + rng.choice([0.0, 0.004, 0.5], 40)
    specs = parse_field_specs({"total": {"type": "number", "atol": 0.01}})
    new = fieldwise.compare(truth, {"p": pred, "q": truth}, specs)
    frame = build_frame(as_truth(truth), {"p": as_outputs(pred), "q": as_outputs(truth)})
    old = compare(frame, specs, baseline="p", candidates=("q",))
    for name, got in new.frames().items():
        pd.testing.assert_frame_equal(got, old.frames()[name], obj=name)


def _assert_same(new: Any, old: Any) -> None:
    """Every frame identical (floats to the last bit) and every figure equal."""
    for name, got in new.frames().items():
        pd.testing.assert_frame_equal(got, old.frames()[name], obj=name, check_exact=True)
    assert new.bootstraps == old.bootstraps
    assert (new.delta, new.warnings, new.recommended_threshold, new.declared_fields) == (
        old.delta,
        old.warnings,
        old.recommended_threshold,
        old.declared_fields,
    )


def _long(truth: pd.DataFrame, predictions: dict[str, pd.DataFrame], specs: Any, **kw: Any) -> Any:
    from fieldwise.compare import build_frame, compare
    from fieldwise.compare.score._inputs import as_outputs, as_truth

    frame = build_frame(as_truth(truth), {v: as_outputs(p) for v, p in predictions.items()})
    return compare(frame, specs, **kw)


@pytest.mark.parametrize("aligned", [False, True])
@pytest.mark.parametrize("weights", ["plain", "exact", "inexact", "many"])
def test_columnwise_tables_equal_the_long_path_exactly(aligned: bool, weights: str) -> None:
    """Every table counted from the scored columns equals the one computed from the cells,
    to the last bit: field weights that add exactly (any order) or not (0.1: the cells' order
    of adding matters), a distinct weight for each of many fields, and predictions in the
    truth's row order (only differing strings hashed) or shuffled, some documents missing."""
    truth, predictions = _wide_pair(3)
    if aligned:  # the truth's documents in the truth's order, every one predicted
        predictions = {
            v: truth.drop(columns="only_truth").assign(flag=truth.index % 3 == 0)
            for v in predictions
        }
        for k, (_, frame) in enumerate(sorted(predictions.items())):
            rng = np.random.default_rng(k)
            for field in ("code", "address", "kind", "issued"):
                change = rng.random(len(frame)) < 0.3
                frame[field] = frame[field].where(~change, frame[field].sample(frac=1.0).values)
    fields: dict[str, Any] = {**FIELDS, "flag": {"type": "boolean"}}
    if weights == "many":  # a dozen fields, each with a weight of its own
        for k in range(5):
            fields[f"x{k}"] = {"type": "string"}
            truth[f"x{k}"] = truth["kind"]
            for frame in predictions.values():
                frame[f"x{k}"] = frame["kind"].sample(frac=1.0, random_state=k).values
    spread = {"plain": [1.0], "exact": [0.5, 2.0, 3.25], "inexact": [0.1, 0.3, 1.7]}
    for k, name in enumerate(sorted(fields)):
        w = float(k + 1) / 7 if weights == "many" else spread[weights][k % len(spread[weights])]
        fields[name] = {**fields[name], "weight": w}
    specs = parse_field_specs(fields)
    from fieldwise.compare.score._columnwise import wide_columns

    wide = wide_columns(truth, predictions)
    assert wide is not None
    assert all((v.position is wide.take) == aligned for v in wide.versions.values())
    new = fieldwise.compare(truth, predictions, specs, baseline="v1", seed=4, n_bootstrap=200)
    old = _long(
        truth, predictions, specs, baseline="v1", candidates=("v2", "v3"), seed=4, n_bootstrap=200
    )
    _assert_same(new, old)
    outcomes = set(new.cells["outcome"].astype(str))
    assert outcomes == {"correct", "wrong", "missed", "spurious", "both_empty"}


def test_columnwise_path_takes_the_candidate_option() -> None:
    """``candidate=`` (with every other version a candidate) scores column by column too,
    with the long path's result."""
    from fieldwise.compare.score import _columnwise

    truth, predictions = _wide_pair(4)
    specs = parse_field_specs(FIELDS)
    taken: list[bool] = []
    original = _columnwise.compare_scored

    def spy(*args: Any, **kwargs: Any) -> Any:
        taken.append(True)
        return original(*args, **kwargs)

    _columnwise.compare_scored = spy  # type: ignore[assignment]
    try:
        new = fieldwise.compare(truth, predictions, specs, baseline="v2", candidate="v3")
    finally:
        _columnwise.compare_scored = original  # type: ignore[assignment]
    assert taken == [True]
    old = _long(truth, predictions, specs, baseline="v2", candidates=("v1", "v3"), candidate="v3")
    _assert_same(new, old)


def test_swapped_outcome_codes_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The equality above fails when the column-wise path mislabels outcomes: missed and
    spurious swapped (or correct and wrong) change the cells and the tables."""
    from fieldwise.compare.score import _columnwise

    truth, predictions = _wide_pair(5)
    specs = parse_field_specs(FIELDS)
    old = _long(truth, predictions, specs, baseline="v1", candidates=("v2", "v3"))
    original = _columnwise.outcome_codes
    for a, b in ((2, 3), (0, 1)):

        def swapped(res: Any, a: int = a, b: int = b) -> Any:
            codes = original(res)
            out = codes.copy()
            out[codes == a], out[codes == b] = b, a
            return out

        monkeypatch.setattr(_columnwise, "outcome_codes", swapped)
        new = fieldwise.compare(truth, predictions, specs, baseline="v1")
        with pytest.raises(AssertionError):
            _assert_same(new, old)
        with pytest.raises(AssertionError):  # the tables alone, before any cell is read
            pd.testing.assert_frame_equal(new.fields, old.fields)


@pytest.mark.parametrize(
    "ids",
    [["a", "b", "a"], [1, "1", 2]],  # repeated, and distinct only until written as text
)
def test_repeated_documents_leave_the_columnwise_path(ids: list[Any]) -> None:
    from fieldwise.compare.score._columnwise import wide_columns

    keys = np.empty(3, dtype=object)
    keys[:] = ids
    frame = pd.DataFrame({"document": keys, "total": [1.0, 2.0, 3.0]})
    good = pd.DataFrame({"document": ["a", "b", "c"], "total": [1.0, 2.0, 3.0]})
    assert wide_columns(frame, {"p": good}) is None
    assert wide_columns(good, {"p": frame}) is None
    assert wide_columns(good, {"p": good}) is not None


def test_columns_and_bootstrap_on_threads_give_the_same_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Large inputs are scored column by column on threads, and the bootstrap sums documents
    on threads: forced on for a small input, every frame and figure is the long path's."""
    from fieldwise.compare.score import _columnwise
    from fieldwise.compare.stats import _poisson

    monkeypatch.setattr(_columnwise, "PARALLEL_CELLS", 0)
    monkeypatch.setattr(_poisson, "_MIN_BLOCKS_PER_WORKER", 1)
    monkeypatch.setattr(_poisson, "_BLOCK", 2000)  # a few documents per block: many blocks
    truth, predictions = _wide_pair(6)
    specs = parse_field_specs(FIELDS)
    new = fieldwise.compare(truth, predictions, specs, baseline="v3", n_bootstrap=100)
    old = _long(truth, predictions, specs, baseline="v3", candidates=("v1", "v2"), n_bootstrap=100)
    _assert_same(new, old)


def test_figures_are_counted_from_the_columns_codes_alone() -> None:
    """Every figure of a wide comparison is reduced without laying the cells out, and the
    columns' codes (a block per column) give the statistics the laid-out cells give."""
    from fieldwise.compare import partition_statistics, weight_classes

    truth, predictions = _wide_pair(6)
    specs = parse_field_specs(FIELDS)
    result = fieldwise.compare(truth, predictions, specs, baseline="v1", n_bootstrap=50)
    assert result.bootstrap is not None
    assert len(result.significance) > 0
    assert not isinstance(result._cells, pd.DataFrame)  # not laid out
    assert result.statistics is not None
    resolved = {f: specs.get(f, FieldSpec(f, "string")) for f in result.fields["field"]}
    again = partition_statistics(
        result.cells,
        baseline="v1",
        candidates=("v2", "v3"),
        weights=weight_classes(resolved),
        n_resamples=50,
    )
    for name in ("outcomes", "score_sums", "documents", "transitions", "kept_values"):
        assert getattr(again, name) == getattr(result.statistics, name), name
    for candidate in ("v2", "v3"):
        assert (
            again.boot_replicates[candidate] == result.statistics.boot_replicates[candidate]
        ).all()
