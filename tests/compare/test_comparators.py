"""One tiny hand-built pair of columns per comparator; the exact differences are listed here.

exact_string:   "Lieferant  GmbH" vs "lieferant gmbh" (case + whitespace: equal);
                "A.B." vs "AB" (equal only with ignore_punctuation); "Café" vs "Cafe" (differ).
number:         "1.234,50" vs 1234.5 (equal); 100 vs 100.4 (equal with atol 0.5);
                1000 vs 1010 (equal with rtol 0.01, which also covers 100.4);
                "n/a" vs "N/A" (unparsed, equal as folded text).
currency:       "€ 1.234,50" vs "1234.50 EUR" (equal, codes equal); "10 USD" vs "10 EUR" (equal
                amounts, differ when currency_required); 10.004 vs 10 (within default atol 0.005).
date:           "05.03.2018" vs "2018-03-05" (equal with DMY, differ with MDY).
enum:           "PAID" vs "paid" (equal); "open" vs "paid" (differ).
boolean:        "ja" vs True (equal); "nein" vs "yes" (differ).
fuzzy_text:     "Kunden AG Mitte" vs "Kunden AG Mite" (ratio 0.9655: match at 0.9, not at 0.97).
empties:        None / "" on either side: empty flags and score 0 (one side) or 1 (both).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

from fieldwise.compare import (
    FieldSpec,
    boolean,
    comparator_for,
    currency,
    date,
    enum,
    exact_string,
    fuzzy_text,
    number,
)


def s(*values: Any) -> pd.Series[Any]:
    return pd.Series(list(values), dtype=object)


def test_exact_string_folds() -> None:
    left, right = s("Lieferant  GmbH", "A.B.", "Café"), s("lieferant gmbh", "AB", "Cafe")
    assert exact_string()(left, right).match.tolist() == [True, False, False]
    assert exact_string(ignore_punctuation=True)(left, right).match.tolist() == [True, True, False]
    assert exact_string(case_sensitive=True)(left, right).match.tolist() == [False, False, False]


def test_number_tolerances() -> None:
    left, right = s("1.234,50", 100, 1000, "n/a"), s(1234.5, 100.4, 1010, "N/A")
    assert number()(left, right).match.tolist() == [True, False, False, True]
    assert number(atol=0.5)(left, right).match.tolist() == [True, True, False, True]
    assert number(rtol=0.01)(left, right).match.tolist() == [True, True, True, True]


def test_currency_codes() -> None:
    left, right = s("€ 1.234,50", "10 USD", 10.004), s("1234.50 EUR", "10 EUR", 10)
    assert currency()(left, right).match.tolist() == [True, True, True]
    required = currency(currency_required=True)(left, right)
    assert required.match.tolist() == [True, False, True]


def test_date_order() -> None:
    left, right = s("05.03.2018"), s("2018-03-05")
    assert date("DMY")(left, right).match.tolist() == [True]
    assert date("MDY")(left, right).match.tolist() == [False]


def test_enum_and_boolean() -> None:
    assert enum(("paid", "open"))(s("PAID", "open"), s("paid", "paid")).match.tolist() == [
        True,
        False,
    ]
    assert boolean()(s("ja", "nein"), s(True, "yes")).match.tolist() == [True, False]


def test_fuzzy_text_keeps_similarity() -> None:
    left, right = s("Kunden AG Mitte", "x"), s("Kunden AG Mite", "x")
    res = fuzzy_text(threshold=0.9)(left, right)
    assert res.score[0] == pytest.approx(28 / 29)
    assert res.match.tolist() == [True, True]
    assert fuzzy_text(threshold=0.97)(left, right).match.tolist() == [False, True]


def test_empties() -> None:
    res = exact_string()(s(None, "a", "", np.nan), s("a", None, " ", None))
    assert res.left_empty.tolist() == [True, False, True, True]
    assert res.right_empty.tolist() == [False, True, True, True]
    assert res.match.tolist() == [False, False, False, False]
    assert res.score.tolist() == [0.0, 0.0, 1.0, 1.0]


def test_unhashable_values_compare_as_json() -> None:
    res = exact_string()(s(["a", "b"], {"k": 1}), s(["a", "b"], {"k": 2}))
    assert res.match.tolist() == [True, False]


def test_comparator_for_each_type() -> None:
    pairs = {
        "string": ("ABC", "abc"),
        "text": ("Lieferant GmbH", "Lieferant GmbH."),
        "number": ("1,5", "1.5"),
        "currency": ("€5", "5.00"),
        "date": ("5.3.2018", "2018-03-05"),
        "enum": ("EUR", "eur"),
        "boolean": ("yes", "1"),
    }
    for kind, (a, b) in pairs.items():
        spec = FieldSpec(name="f", type=kind, date_order="DMY")
        assert comparator_for(spec)(s(a), s(b)).match.tolist() == [True], kind


def test_currency_objects_with_codes() -> None:
    """{"amount": "10,00", "currency": "EUR"} vs "10 EUR": equal, also when codes must match;
    against "10 USD" equal amounts but different codes."""
    left = s({"amount": "10,00", "currency": "EUR"}, {"amount": 10, "currency": "EUR"})
    right = s("10 EUR", "10 USD")
    assert currency()(left, right).match.tolist() == [True, True]
    assert currency(currency_required=True)(left, right).match.tolist() == [True, False]


def test_instances_answers_isinstance_for_every_kind_of_value() -> None:
    """Types answered once per distinct type must agree with ``isinstance`` per value: plain
    JSON types, bool as an int, NumPy scalars and subclasses (asked one by one)."""
    from decimal import Decimal

    from fieldwise.compare.score._amounts import _instances

    class Text(str):
        pass

    class Amount(float):
        pass

    values = np.array(
        [
            1,
            2.5,
            True,
            "3",
            None,
            float("nan"),
            {"a": 1},
            [1],
            np.float64(4),
            np.int64(5),
            np.bool_(True),
            Text("x"),
            Amount(6.0),
            Decimal("7"),
            b"8",
        ]
        * 3,
        dtype=object,
    )
    for kinds, also in (((int, float), (bool,)), ((str, dict), ())):
        want = [isinstance(v, kinds) for v in values]
        assert _instances(values, kinds, also).tolist() == want
    assert _instances(np.array([], dtype=object), (str,), ()).tolist() == []


_STRINGS = [
    "Lieferant  GmbH",
    "lieferant gmbh",
    "A.B.",
    "AB",
    "Café",
    "Cafe",
    "",
    "  ",
    "05.03.2018",
    "2018-03-05",
    "PAID",
    "paid",
    "ja",
    "nein",
    "Kunden AG Mitte",
    "Kunden AG Mite",
    "ß",
    "ẞ",
    "x\ny",
    np.str_("np string"),
]


@pytest.mark.parametrize("missing", [None, float("nan"), pd.NA])
@pytest.mark.parametrize("seed", [0, 1])
def test_string_columns_hashed_by_arrow_compare_as_factorized(missing: Any, seed: int) -> None:
    """Columns of only strings (and missing values) are coded by Arrow, not ``pd.factorize``:
    every coded comparator gives the same cells either way."""
    from fieldwise.compare import parse_field_specs
    from fieldwise.compare.score._base import CodedComparator, string_dictionary

    rng = np.random.default_rng(seed)
    pool = [*_STRINGS, missing]
    left = s(*(pool[i] for i in rng.integers(0, len(pool), 300)))
    right = s(*(pool[i] for i in rng.integers(0, len(pool), 300)))
    assert string_dictionary(np.concatenate([left.to_numpy(), right.to_numpy()])) is not None
    specs = [
        {"type": "string"},
        {"type": "string", "case_sensitive": True, "ignore_punctuation": True},
        {"type": "string", "fold_lines": True},
        {"type": "text", "threshold": 0.9},
        {"type": "date", "date_order": "DMY"},
        {"type": "enum", "values": ["PAID", "OPEN"]},
        {"type": "boolean"},
    ]
    for raw in specs:
        comparator = comparator_for(parse_field_specs({"f": raw})["f"])
        assert isinstance(comparator, CodedComparator)
        got = comparator(left, right)
        codes, uniques = pd.factorize(np.concatenate([left.to_numpy(), right.to_numpy()]))
        want = comparator.from_codes(codes[:300], codes[300:], list(uniques))
        for name in ("left_empty", "right_empty", "match", "score"):
            np.testing.assert_array_equal(getattr(got, name), getattr(want, name), err_msg=name)


@pytest.mark.parametrize(
    "values", [["a", 1.5], ["a", b"b"], ["a", "\ud800"], ["a", pd.NaT], [None, None], []]
)
def test_columns_not_only_strings_are_factorized(values: list[Any]) -> None:
    from fieldwise.compare.score._base import string_dictionary

    assert string_dictionary(np.asarray([*values, None], dtype=object)[: len(values)]) is None


_AMOUNTS = [
    "€ 1.234,50",
    "1234.50 EUR",
    "1,234.50",
    "1.234",
    "(12.00)",
    "12.00-",
    "−7,5",
    "1e3",
    "n/a",
    "N/A",
    "",
    " ",
    "12 345,6",
    "USD 10",
    "10 $",
    "٣٤",
    "12,345,678.9",
    "0,5",
    "abc",
    np.str_("42"),
]


@pytest.mark.parametrize("missing", [None, float("nan")])
@pytest.mark.parametrize("atol", [0.0, 0.01])
def test_amount_strings_parsed_from_arrow_compare_as_factorized(
    monkeypatch: pytest.MonkeyPatch, missing: Any, atol: float
) -> None:
    """Amount columns of only strings are hashed and parsed from an Arrow dictionary: the
    same cells as through ``pd.factorize`` and a Python list of the distinct strings."""
    import fieldwise.compare.score._amounts as amounts

    rng = np.random.default_rng(7)
    pool = [*_AMOUNTS, missing]
    left = s(*(pool[i] for i in rng.integers(0, len(pool), 400)))
    right = s(*(pool[i] for i in rng.integers(0, len(pool), 400)))
    comparators = [number(atol=atol), currency(atol=atol), currency(currency_required=True)]
    got = [c(left, right) for c in comparators]
    monkeypatch.setattr(amounts, "string_dictionary", lambda values: None)
    want = [c(left, right) for c in comparators]
    for g, w in zip(got, want, strict=True):
        for name in ("left_empty", "right_empty", "match", "score"):
            np.testing.assert_array_equal(getattr(g, name), getattr(w, name), err_msg=name)
    parsed = amounts._parsed_amounts(left, right, with_code=False)
    monkeypatch.undo()
    for g, w in zip(parsed, amounts._parsed_amounts(left, right, with_code=False), strict=True):
        np.testing.assert_array_equal(g, w)


def test_number_strings_parse_alike_from_a_list_and_from_arrow() -> None:
    import pyarrow as pa

    from fieldwise.compare.score._vectorized import parse_number_strings

    strings = [str(v) for v in _AMOUNTS]
    for arrow in (pa.array(strings, type=pa.large_string()), pa.array(strings)):
        for g, w in zip(parse_number_strings(arrow), parse_number_strings(strings), strict=True):
            np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("with_code", [False, True])
def test_amount_keys_follow_the_scalar_parsers(with_code: bool) -> None:
    """Each amount's key is -1 when empty, 0 for a number, else shared exactly by the values
    whose unparsed text is the same; each code key is shared exactly by equal currency codes
    (-1 for none): whichever values went through the scalar parsers."""
    from fieldwise.compare.score._amounts import _parsed_amounts
    from fieldwise.compare.score._normalize import parse_currency, parse_number

    rng = np.random.default_rng(3)
    pool = [*_AMOUNTS, None, float("nan"), 12.5, 3, {"amount": "1,5", "currency": "EUR"}]
    pool += ["ABC", "abc ", "n/a.", "12 GBP", "GBP 12", "€12"]
    left = s(*(pool[i] for i in rng.integers(0, len(pool), 300)))
    right = s(*(pool[i] for i in rng.integers(0, len(pool), 300)))
    amounts, keys, codes = _parsed_amounts(left, right, with_code=with_code)
    values = [*left, *right]
    parsed = [
        parse_currency(v) if with_code or isinstance(v, dict) else (parse_number(v), None)
        for v in values
    ]
    for i, (a, code) in enumerate(parsed):
        assert (keys[i] == -1) == (a is None), values[i]
        assert (keys[i] == 0) == (type(a) is float), values[i]
        if type(a) is float:
            assert amounts[i] == a
        same_text = [j for j, (b, _) in enumerate(parsed) if keys[i] > 0 and b == a]
        if keys[i] > 0:
            assert [j for j in range(len(values)) if keys[j] == keys[i]] == same_text
        # (a dict names its currency whether or not codes are required)
        same_code = [j for j, (_, c) in enumerate(parsed) if c == code]
        assert [j for j in range(len(values)) if codes[j] == codes[i]] == same_code
        assert (codes[i] == -1) == (code is None)
