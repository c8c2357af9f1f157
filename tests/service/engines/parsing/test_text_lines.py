"""``group_text_lines`` (a PDF's text layer) gives exactly the lines of ``group_lines``.

It takes each row's top and bottom from the grouping instead of again per line; the cases
where that could differ are edges that are zero (0.0 and -0.0 are equal but print apart),
NaN and infinite. Random pages built from those values, and from ordinary ones, must give
lines equal to ``group_lines``'s down to the repr of every float.
"""

from __future__ import annotations

import math
import random

import pytest

from fieldwise.service.engines.parsing.layout import group_lines, group_text_lines
from fieldwise.service.engines.parsing.model import Box, Word

_EDGES = [0.0, -0.0, math.nan, math.inf, -math.inf, 1.0, 1.0, 2.5]


def _page(rng: random.Random, special: bool) -> list[Word]:
    words = []
    for k in range(rng.randint(1, 40)):
        row = rng.randint(0, 6) * 12.0
        x0 = rng.choice(_EDGES) if special and rng.random() < 0.3 else rng.uniform(0, 500)
        y0 = rng.choice(_EDGES) if special and rng.random() < 0.3 else row + rng.uniform(-2, 2)
        y1 = rng.choice(_EDGES) if special and rng.random() < 0.3 else y0 + rng.uniform(6, 11)
        x1 = x0 + rng.uniform(5, 40)
        words.append(Word(f"w{k}", Box(x0, y0, x1, y1)))
    return words


@pytest.mark.parametrize("special", [False, True])
def test_text_lines_are_group_lines_to_the_last_bit(special: bool) -> None:
    rng = random.Random(20261124)
    for _ in range(3000):
        words = _page(rng, special)
        assert repr(group_text_lines(words)) == repr(group_lines(words)), words


def test_a_row_on_the_zero_edge_keeps_the_zero_of_its_leftmost_word() -> None:
    # "a" comes first top to bottom, "b" first left to right: the grouping's running top
    # would be a's 0.0, the line's top is b's -0.0
    words = [Word("a", Box(10.0, 0.0, 20.0, 8.0)), Word("b", Box(0.0, -0.0, 8.0, 9.0))]
    (line,) = group_text_lines(words)
    assert repr(line) == repr(group_lines(words)[0])
    assert math.copysign(1.0, line.box.y0) == -1.0
