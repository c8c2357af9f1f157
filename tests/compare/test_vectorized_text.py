"""Folding strings and reading month-name dates in bulk with Arrow equal the scalar
``normalize_text`` and ``parse_date`` wherever the bulk path answers."""

from __future__ import annotations

import itertools
import random
import string

import pytest

from fieldwise.compare import parse_date
from fieldwise.compare.score._normalize import MONTHS, normalize_text
from fieldwise.compare.score._vectorized import normalize_text_strings, parse_date_strings

_ALPHABET = (
    string.ascii_letters[:8]
    + string.digits[:3]
    + string.punctuation
    + " \t\n\r\x0b\x0c\x1c\x1f"
    + "éÄß\u00a0ＡＢ\u2028"
)


def _strings() -> list[str]:
    rnd = random.Random(1)
    made = ["".join(rnd.choice(_ALPHABET) for _ in range(rnd.randint(0, 12))) for _ in range(3000)]
    return [*made, "", " ", "A", "  a  b  ", "INV-001", "Acme GmbH", "\t\n"]


@pytest.mark.parametrize(
    ("case_sensitive", "normalize_whitespace", "ignore_punctuation", "ignore_spaces"),
    list(itertools.product([False, True], repeat=4)),
)
def test_bulk_folding_is_normalize_text(
    case_sensitive: bool, normalize_whitespace: bool, ignore_punctuation: bool, ignore_spaces: bool
) -> None:
    folds = {
        "case_sensitive": case_sensitive,
        "normalize_whitespace": normalize_whitespace,
        "ignore_punctuation": ignore_punctuation,
        "ignore_spaces": ignore_spaces,
    }
    strings = _strings()
    texts, handled = normalize_text_strings(strings, **folds)
    assert handled.sum() > len(strings) // 3  # the ASCII ones, at least
    assert all(not h for s, h in zip(strings, handled, strict=True) if not s.isascii())
    wrong = [
        (s, t)
        for s, t, h in zip(strings, texts, handled, strict=True)
        if h and t != normalize_text(s, **folds)
    ]
    assert wrong == []


def _month_name_dates() -> list[str]:
    rnd = random.Random(0)
    names = [*MONTHS, "Marchx", "Foo", "MAR", "Sept", "sept."]
    out = []
    for _ in range(4000):
        day = rnd.choice([rnd.randint(0, 40), 5, 29, 30, 31])
        year = rnd.choice([2018, 1999, 18, 69, 70, 0, 2024, 10000, 5])
        month = rnd.choice(names)
        month = rnd.choice([month, month.upper(), month.capitalize(), month + "."])
        suffix = rnd.choice(["", "st", "nd", "th", "."])
        sep = rnd.choice([" ", "  ", "-", "/", ", ", " - ", ""])
        out.append(
            rnd.choice(
                [
                    f"{day}{suffix}{sep}{month}{sep}{year}",
                    f" {month}{rnd.choice(['', ' '])}{day}{suffix}{rnd.choice([',', ''])} {year} ",
                    f"{day}.{rnd.randint(0, 13)}.{year}",
                ]
            )
        )
    return out


@pytest.mark.parametrize("order", ["DMY", "MDY", "YMD"])
def test_month_name_dates_in_bulk_are_parse_date(order: str) -> None:
    strings = _month_name_dates()
    iso, handled = parse_date_strings(strings, order)
    assert handled.sum() > len(strings) // 4
    wrong = [
        (s, d)
        for s, d, h in zip(strings, iso, handled, strict=True)
        if h and d != parse_date(s, date_order=order)
    ]
    assert wrong == []
    got, ok = parse_date_strings(["March 5, 2018", "5th Mar. 18", "31 Feb 2020"], order)
    assert got[:2] == ["2018-03-05", "2018-03-05"]
    assert ok.tolist() == [True, True, False]  # no 31 February: the scalar parser says why
