"""Predictions holding the truth's documents in the truth's rows are scored without aligning
them (:meth:`~fieldwise.compare.score._columnwise.WideColumns._row_outcome`): numbers by the
number comparator's tolerance on the float rows (infinities too), plain ASCII strings with one
Arrow comparison. Every frame of the result (cells included) is the general path's; every
other column pair (whitespace, non-ASCII, folds of punctuation or lines, other comparators,
shuffled predictions) goes through the comparators."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import fieldwise
from fieldwise.compare import build_frame, compare, parse_field_specs
from fieldwise.compare.score import _columnwise
from fieldwise.compare.score._inputs import as_outputs, as_truth

_PLAIN = ["INV-001", "inv-001", "Inv-001", "A.B", "ab", "AB", "x~{}", "", None]
# string columns: (spec, pool); every pool but the first two ends on the row-order path
# only when it is plain ASCII without whitespace and the spec folds at most case / spaces
_STRINGS: dict[str, tuple[dict[str, Any], list[Any]]] = {
    "plain_cs": ({"type": "string", "case_sensitive": True}, _PLAIN),
    "plain_ci": ({"type": "string"}, _PLAIN),
    "plain_raw": ({"type": "string", "normalize_whitespace": False}, _PLAIN),
    "plain_nospace": ({"type": "string", "case_sensitive": True, "ignore_spaces": True}, _PLAIN),
    "spaced": ({"type": "string"}, [*_PLAIN, "a b", "a  b", " a b ", "a\tb"]),
    "spaces": ({"type": "string", "case_sensitive": True}, [*_PLAIN, "a b", "a  b", " a b"]),
    "controls": ({"type": "string"}, [*_PLAIN, "a\x1fb", "a\x1eb", "a\x0bb", "a\x00b"]),
    "unicode": ({"type": "string"}, [*_PLAIN, "Ünïcode", "ünïcode", "ＡＢＣ", "ABC", "ǅ", "ß"]),
    "punct": ({"type": "string", "ignore_punctuation": True}, _PLAIN),
    "lines": ({"type": "string", "fold_lines": True}, [*_PLAIN, "a,b", "a;b"]),
    "fuzzy": ({"type": "text", "threshold": 0.8}, _PLAIN),
    "kind": ({"type": "enum", "values": ["Invoice", "ab"]}, [*_PLAIN, "invoice"]),
    "issued": ({"type": "date"}, ["2024-03-05", "05.03.2024", "", None, "x"]),
    "paid": ({"type": "boolean"}, ["yes", "no", "1", "0", "", None]),
    "amount_text": ({"type": "number"}, ["1.5", "1,5", "2", "", None]),
}
_ROW_PATH = {
    "plain_cs",
    "plain_ci",
    "plain_raw",
    "plain_nospace",
    "amount",
    "count",
    "price",
    "inf",
}


def _strings(pool: list[Any], picks: np.ndarray) -> pd.Series[Any]:
    return pd.Series([pool[int(i)] for i in picks], dtype="str")


def _frames(seed: int, documents: int = 300, ids: str = "int") -> tuple[pd.DataFrame, pd.DataFrame]:
    """Truth and predictions in the same rows (documents in no sorted order)."""
    rng = np.random.default_rng(seed)
    keys: Any = rng.permutation(documents) * 7
    if ids == "str":
        keys = [f"d{k}" for k in keys]
    truth = pd.DataFrame({"document": keys})
    pred = pd.DataFrame({"document": keys})
    for name, (_, pool) in _STRINGS.items():
        truth[name] = _strings(pool, rng.integers(0, len(pool), documents))
        fresh = _strings(pool, rng.integers(0, len(pool), documents))
        pred[name] = truth[name].where(rng.random(documents) < 0.6, fresh)
    amount = np.round(rng.uniform(-100, 100, documents), 2)
    amount[rng.random(documents) < 0.1] = np.nan
    truth["amount"] = amount
    off = rng.choice([0.0, 0.004, 0.01, 0.02, 5.0, np.nan], documents)
    pred["amount"] = amount + off
    truth["count"] = rng.integers(0, 5, documents)
    pred["count"] = truth["count"] + rng.choice([0, 0, 1], documents)
    truth["price"] = rng.choice([1.0, 2.5, np.nan], documents)
    pred["price"] = rng.choice([1.0, 2.5, np.nan], documents)
    truth["inf"] = rng.choice([1.0, np.inf, -np.inf, np.nan], documents)
    pred["inf"] = rng.choice([1.0, np.inf, np.nan], documents)
    truth["mixed"] = rng.choice([1.0, 2.0, np.nan], documents)  # numbers against strings
    pred["mixed"] = _strings(["1", "2.0", "x", None], rng.integers(0, 4, documents))
    truth["only_truth"] = _strings(_PLAIN, rng.integers(0, len(_PLAIN), documents))
    pred["only_pred"] = rng.choice([1.0, np.nan], documents)
    return truth, pred


def _specs() -> Any:
    return parse_field_specs(
        {
            **{name: spec for name, (spec, _) in _STRINGS.items()},
            "amount": {"type": "number", "atol": 0.01},
            "count": {"type": "number"},
            "price": {"type": "currency", "rtol": 0.1},
            "inf": {"type": "number"},
            "mixed": {"type": "number"},
            "only_truth": {"type": "string", "case_sensitive": True},
            "only_pred": {"type": "number"},
        }
    )


def _long(truth: pd.DataFrame, predictions: dict[str, pd.DataFrame], **kw: Any) -> Any:
    frame = build_frame(as_truth(truth), {v: as_outputs(p) for v, p in predictions.items()})
    return compare(frame, _specs(), **kw)


def _assert_same(new: Any, old: Any) -> None:
    for name, got in new.frames().items():
        pd.testing.assert_frame_equal(got, old.frames()[name], obj=name, check_exact=True)
    assert new.bootstraps == old.bootstraps
    assert (new.delta, new.warnings, new.recommended_threshold) == (
        old.delta,
        old.warnings,
        old.recommended_threshold,
    )


def _spy(monkeypatch: pytest.MonkeyPatch) -> dict[str, bool]:
    """Which columns the row-order path scored (name -> taken), recorded while comparing."""
    taken: dict[str, bool] = {}
    original = _columnwise.WideColumns._row_outcome

    def spy(self: Any, version: Any, name: str, spec: Any) -> Any:
        out = original(self, version, name, spec)
        taken[name] = taken.get(name, False) or out is not None
        return out

    monkeypatch.setattr(_columnwise.WideColumns, "_row_outcome", spy)
    return taken


@pytest.mark.parametrize(("seed", "ids"), [(0, "int"), (1, "int"), (2, "str")])
def test_row_order_path_equals_the_general_path(
    monkeypatch: pytest.MonkeyPatch, seed: int, ids: str
) -> None:
    truth, pred = _frames(seed, ids=ids)
    other = pred.copy()
    other["plain_ci"] = other["plain_ci"].str.upper()  # case folded on the row-order path
    predictions = {"v1": pred, "v2": other}
    taken = _spy(monkeypatch)
    new = fieldwise.compare(truth, predictions, _specs(), baseline="v1", seed=3, n_bootstrap=100)
    assert {name for name, got in taken.items() if got} == _ROW_PATH
    old = _long(truth, predictions, baseline="v1", candidates=("v2",), seed=3, n_bootstrap=100)
    _assert_same(new, old)
    outcomes = set(new.cells["outcome"].astype(str))
    assert outcomes == {"correct", "wrong", "missed", "spurious", "both_empty"}


def test_row_order_path_on_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_columnwise, "PARALLEL_CELLS", 0)
    truth, pred = _frames(3)
    new = fieldwise.compare(truth, {"p": pred, "q": truth}, _specs(), baseline="p")
    _assert_same(new, _long(truth, {"p": pred, "q": truth}, baseline="p", candidates=("q",)))


@pytest.mark.parametrize("change", ["shuffled", "one_missing", "other_ids"])
def test_predictions_in_other_rows_take_the_aligning_path(
    monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    truth, pred = _frames(5)
    if change == "shuffled":  # the same documents, other rows
        pred = pred.sample(frac=1.0, random_state=1).reset_index(drop=True)
    elif change == "one_missing":
        pred = pred.iloc[1:].reset_index(drop=True)
    else:  # the same rows written as text: still the truth's documents in the truth's rows
        pred = pred.assign(document=pred["document"].astype(str))
    taken = _spy(monkeypatch)
    new = fieldwise.compare(truth, {"p": pred}, _specs())
    assert any(taken.values()) == (change == "other_ids")
    _assert_same(new, _long(truth, {"p": pred}, baseline="p", candidates=()))


def _chunked(series: pd.Series[Any], bounds: list[int]) -> pd.Series[Any]:
    """``series`` as Arrow strings in chunks (slices of a larger array, as Parquet gives
    them), cut at ``bounds``."""
    from pandas.core.arrays.string_arrow import ArrowStringArray

    values = [v if isinstance(v, str) else None for v in series.tolist()]
    wider = pa.array(["p a d", *values], type=pa.large_string())  # the chunks have offsets
    chunks = [wider.slice(1 + a, b - a) for a, b in itertools.pairwise(bounds)]
    return pd.Series(ArrowStringArray(pa.chunked_array(chunks, pa.large_string())))


def test_strings_in_chunks_cut_differently(monkeypatch: pytest.MonkeyPatch) -> None:
    """Truth and predictions in Arrow chunks cut at other rows are read chunk by chunk."""
    truth, pred = _frames(6)
    for name in _STRINGS:
        truth[name] = _chunked(truth[name], [0, 100, 300])
        pred[name] = _chunked(pred[name], [0, 37, 200, 250, 300])
    assert truth["plain_cs"].array.__arrow_array__().num_chunks == 2
    taken = _spy(monkeypatch)
    new = fieldwise.compare(truth, {"p": pred}, _specs())
    assert {name for name, got in taken.items() if got} == _ROW_PATH
    _assert_same(new, _long(truth, {"p": pred}, baseline="p", candidates=()))
