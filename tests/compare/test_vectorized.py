"""The Arrow number parser agrees with the scalar ``parse_number`` on every value it handles."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fieldwise.compare.normalize import parse_number
from fieldwise.compare.vectorized import parse_number_strings

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
