"""Values as people write them: amounts with currency marks, spaced identifiers, addresses.

currency:   "RM 29.70" vs 29.7, "$8.20" vs 8.2, "1.021,91 €" vs 1021.91, "Rs 1,200.00" vs 1200,
            "29,70 zł" vs 29.7, "Rs. 1,200.00" vs 1200 (all equal); codes MYR, USD, EUR, INR, PLN.
identifier: "DE89 3704 0044 0532 0130 00" vs "de89370400440532013000" (equal only with
            ignore_spaces; case is folded by default).
address:    "1 Main St,\\nLeeds LS1 4AP", "1 Main St, Leeds LS1 4AP" and
            "1 Main St\\r\\nLeeds  LS1 4AP" (equal with fold_lines, exact and fuzzy).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from fieldwise.compare import (
    FieldSpec,
    build_frame,
    comparator_for,
    compare,
    currency,
    exact_string,
    fuzzy_text,
    number,
    parse_currency,
    parse_field_specs,
    parse_number,
)
from fieldwise.compare.score._vectorized import parse_number_strings

WRITTEN = [
    ("RM 29.70", 29.7, "MYR"),
    ("$8.20", 8.2, "USD"),
    ("1.021,91 €", 1021.91, "EUR"),
    ("Rs 1,200.00", 1200.0, "INR"),
    ("Rs. 1,200.00", 1200.0, "INR"),
    ("29,70 zł", 29.7, "PLN"),
    ("R$ 1.234,56", 1234.56, "BRL"),
    ("MYR 29.70", 29.7, "MYR"),
    ("CHF 1'234.50", 1234.5, "CHF"),
]


def s(*values: Any) -> pd.Series[Any]:
    return pd.Series(list(values), dtype=object)


@pytest.mark.parametrize(("raw", "amount", "code"), WRITTEN)
def test_amounts_as_written(raw: str, amount: float, code: str) -> None:
    assert parse_number(raw) == pytest.approx(amount)
    assert parse_currency(raw) == (pytest.approx(amount), code)


def test_bulk_and_scalar_number_parsers_agree_on_written_amounts() -> None:
    strings = [raw for raw, _, _ in WRITTEN] + ["1A.5", "Rs.12", "FORM 12", "abc"]
    values, handled = parse_number_strings(strings)
    for text, value, ok in zip(strings, values.tolist(), handled.tolist(), strict=True):
        if ok:
            assert value == parse_number(text), text


def test_letter_symbols_count_only_as_words() -> None:
    assert parse_currency("FORM 12")[1] is None
    assert parse_currency("12 RM")[1] == "MYR"


def test_currency_and_number_comparators_read_written_truth() -> None:
    expected = s(*(raw for raw, _, _ in WRITTEN))
    predicted = s(*(amount for _, amount, _ in WRITTEN))
    assert currency()(expected, predicted).match.all()
    assert number()(expected, predicted).match.all()
    coded = s(*({"amount": a, "currency": c} for _, a, c in WRITTEN))
    assert currency(currency_required=True)(expected, coded).match.all()
    assert not currency()(s("RM 29.70"), s(29.8)).match.any()


def test_ignore_spaces_for_identifiers() -> None:
    iban, bare = s("DE89 3704 0044 0532 0130 00"), s("de89370400440532013000")
    assert not exact_string()(iban, bare).match.any()
    assert exact_string(ignore_spaces=True)(iban, bare).match.all()
    spec = parse_field_specs({"iban": {"type": "string", "ignore_spaces": True}})["iban"]
    assert comparator_for(spec)(iban, bare).match.all()


def test_fold_lines_for_addresses() -> None:
    forms = ("1 Main St,\nLeeds LS1 4AP", "1 Main St, Leeds LS1 4AP", "1 Main St\r\nLeeds  LS1 4AP")
    left = s(*forms)
    right = s(*forms[1:], forms[0])
    assert not exact_string()(left, right).match.all()
    assert exact_string(fold_lines=True)(left, right).match.all()
    scores = fuzzy_text(fold_lines=True)(left, right).score
    assert scores.tolist() == [1.0, 1.0, 1.0]
    spec = FieldSpec(name="address", type="text", fold_lines=True, normalize_whitespace=False)
    assert comparator_for(spec)(left, right).match.all()
    assert not exact_string(fold_lines=True)(s("1,5 kg"), s("1 5 kg")).match.any()


def test_rm_total_scores_equal_to_the_number_through_compare() -> None:
    specs = parse_field_specs({"total": {"type": "currency"}})
    frame = build_frame(
        {"a": {"total": "RM 29.70"}, "b": {"total": "$8.20"}},
        {"v1": {"a": {"value": {"total": 29.7}}, "b": {"value": {"total": 8.2}}}},
    )
    result = compare(frame, specs, baseline="v1")
    assert result.cells["outcome"].tolist() == ["correct", "correct"]
    assert result.accuracy_baseline == 1.0
