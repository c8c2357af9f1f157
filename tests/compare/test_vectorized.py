"""The Arrow parsers agree with the scalar ``parse_number`` / ``parse_date`` /
``normalize_text`` on every value they handle (the rest falls back to the scalar parsers)."""

from __future__ import annotations

import itertools
import math
import random
import string
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pytest

from fieldwise.compare.score._normalize import (
    AMOUNT_SIGNS,
    MONTHS,
    normalize_text,
    parse_date,
    parse_number,
)
from fieldwise.compare.score._vectorized import (
    date_days,
    normalize_text_array,
    parse_number_strings,
)


def parse_date_strings(strings: list[str], order: str) -> tuple[list[Any], npt.NDArray[np.bool_]]:
    """The bulk reading of ``strings`` as ISO dates: (ISO or None where not read, read)."""
    days, handled = date_days(pa.array(strings, type=pa.string()), order)
    iso = np.datetime_as_string(days, unit="D").tolist()
    return [d if h else None for d, h in zip(iso, handled.tolist(), strict=True)], handled


KNOWN = [
    "1,234.50",
    "1.234,50",
    "€ 1.234,50",
    "1 234,56",
    "1'234.56",
    "(12.00)",
    "-5",
    "−8,79",
    "529,87",
    "1,234",
    "0,234",
    ",234",
    "1.234",
    "1.234.567",
    "12.00-",
    "EUR 17.808,00",
    "(€ 12)",
    "(-5)",
    "-(5)",
    "+7",
    "--5",
    "12.",
    ".5",
    "1,2,3",
    "1.2.3,4",
    "",
    "   ",
    "n/a",
    "12 USD",
    "£0.99",
    "1e5",
    "\t12",
    "١٢",
    "12\n",
    "(",
    "()",
    "-",
    "0",
    "-0",
    "007",
    "1.5E-2",
    " 2e2 ",
    "1e3 EUR",
]


def check(strings: list[str]) -> int:
    values, handled = parse_number_strings(strings)
    for s, v, h in zip(strings, values.tolist(), handled.tolist(), strict=True):
        scalar = parse_number(s)
        if h:
            assert isinstance(scalar, float), s
            assert v == scalar, s
            assert math.copysign(1, v) == math.copysign(1, scalar), s
        else:
            assert math.isnan(v), s
    return int(handled.sum())


def test_known_forms() -> None:
    assert check(KNOWN) >= 20
    values, handled = parse_number_strings(["€ 1.234,50", "(12.00)", "n/a"])
    assert handled.tolist() == [True, True, False]
    assert values[:2].tolist() == [1234.5, -12.0]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_strings(seed: int) -> None:
    rng = np.random.default_rng(seed)
    alphabet = [*("0123456789" * 3), *".,.,()-+ €$EURabc'’−–_%\t", "١"]
    strings = ["".join(rng.choice(alphabet, size=int(rng.integers(1, 12)))) for _ in range(3000)]
    assert check(strings) > 100


def test_empty() -> None:
    values, handled = parse_number_strings([])
    assert len(values) == len(handled) == 0


DATES = [
    "2018-03-05",
    "2018-3-5",
    "2018/03/05",
    "2018.03.05",
    "2018-03-05T10:00:00Z",
    "2018-03-05 10:00",
    " 2018-03-05 ",
    "20180305",
    "05.03.2018",
    "5.3.2018",
    "05/03/2018",
    "03/05/2018",
    "13/03/2018",
    "03/13/2018",
    "05.03.18",
    "5/3/18",
    "18/03/05",
    "31.02.2018",
    "29.02.2020",
    "29.02.2019",
    "0005-03-05",
    "0000-01-01",
    "9999-12-31",
    "5. März 2018",
    "March 5, 2018",
    "5 Mar 2018",
    "00/00/00",
    "12/12/69",
    "12/12/70",
    "1/1/1",
    "soon",
    "",
]


def check_dates(strings: list[str], order: str) -> int:
    iso, handled = parse_date_strings(strings, order)
    for s, value, h in zip(strings, iso, handled.tolist(), strict=True):
        if h:
            assert value == parse_date(s, date_order=order), (s, order)
            assert type(parse_date(s, date_order=order)) is str, s
        else:
            assert value is None
    return int(handled.sum())


@pytest.mark.parametrize("order", ["DMY", "MDY", "YMD"])
def test_dates_known_forms(order: str) -> None:
    assert check_dates(DATES, order) >= 15


@pytest.mark.parametrize("order", ["DMY", "MDY", "YMD"])
def test_dates_random(order: str) -> None:
    rng = np.random.default_rng(len(order) + ord(order[0]))
    strings = []
    for _ in range(3000):
        a, b = (str(int(x)) for x in rng.integers(0, 40, 2))
        year = str(int(rng.integers(0, 2100))).zfill(int(rng.choice([1, 2, 4])))
        sep = str(rng.choice(["-", ".", "/", " "]))
        strings.append(
            str(
                rng.choice(
                    [
                        f"{a}{sep}{b}{sep}{year}",
                        f"{year}{sep}{a}{sep}{b}",
                        f"{year.zfill(4)}{a.zfill(2)}{b.zfill(2)}",
                        f"{a}{sep}{b}",
                    ]
                )
            )
        )
    assert check_dates(strings, order) > 300


@pytest.mark.parametrize("order", ["DMY", "MDY", "YMD"])
def test_date_keys_are_equal_exactly_for_equal_dates(order: str) -> None:
    """Keys from the Arrow dictionary of the distinct strings: equal exactly where
    ``parse_date`` gives the same ISO date, never negative (a key below 0 means empty); any
    string not read in Arrow leaves the whole dictionary to the scalar parser."""
    from fieldwise.compare.score._vectorized import date_keys

    handled = [s for s in DATES if parse_date_strings([s], order)[1][0]]
    rng = np.random.default_rng(7)
    more = [
        f"{int(d):02d}.{int(m):02d}.{int(y):04d}"
        for d, m, y in zip(
            rng.integers(1, 29, 500),
            rng.integers(1, 13, 500),
            rng.integers(1, 9999, 500),
            strict=True,
        )
    ]
    strings = list(dict.fromkeys(handled + more + ["0001-01-01", "9999-12-31", "1969-12-31"]))
    keys = date_keys(pa.array(strings, type=pa.string()), order)
    assert keys is not None
    assert (keys >= 0).all()
    iso = [parse_date(s, date_order=order) for s in strings]
    for i in range(len(strings)):
        same = [j for j in range(len(strings)) if iso[j] == iso[i]]
        assert [j for j in range(len(strings)) if keys[j] == keys[i]] == same, strings[i]
    assert date_keys(pa.array([*strings, "soon"], type=pa.string()), order) is None
    assert date_keys(pa.array([*strings, "31.02.2018"], type=pa.string()), order) is None


def test_date_comparator_reads_the_same_through_arrow_keys() -> None:
    """The date comparator on strings (keys from Arrow) compares as the scalar route does."""
    import pandas as pd

    from fieldwise.compare.score._comparators import date

    left = ["05.03.2018", "2018-03-05", None, "5 Mar 2018", "13/03/2018", float("nan"), "x"]
    right = ["2018-03-05", "5.3.18", "2018-03-05", None, "2018-03-13", float("nan"), "x"]
    compare = date("DMY")
    for lhs, rhs in ((left[:5], right[:5]), (left, right)):  # all read in Arrow; with "x" not
        got = compare(pd.Series(lhs, dtype=object), pd.Series(rhs, dtype=object))
        want = [
            (parse_date(a, date_order="DMY"), parse_date(b, date_order="DMY"))
            for a, b in zip(lhs, rhs, strict=True)
        ]
        assert got.left_empty.tolist() == [a is None for a, _ in want]
        assert got.right_empty.tolist() == [b is None for _, b in want]
        assert got.match.tolist() == [a is not None and a == b for a, b in want]


@pytest.mark.parametrize("sign", list(AMOUNT_SIGNS))
def test_every_sign_the_scalar_parser_drops_is_read_in_bulk(sign: str) -> None:
    # one table of signs for both parsers: none of them sends an amount to the scalar parser
    strings = [f"{sign} 1.234,50", f"(1,234.50{sign})", f"{sign}-7"]
    values, handled = parse_number_strings(strings)
    assert handled.all()
    assert values.tolist() == [parse_number(s) for s in strings] == [1234.5, -1234.5, -7.0]


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
    text, handled = normalize_text_array(pa.array(strings, type=pa.string()), **folds)
    texts = [t or None for t in text.to_pylist()]
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
