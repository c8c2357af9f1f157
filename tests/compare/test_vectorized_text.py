"""Folding many strings at once with Arrow equals ``normalize_text`` wherever it is used."""

from __future__ import annotations

import itertools
import random
import string

import pytest

from fieldwise.compare._normalize import normalize_text
from fieldwise.compare._vectorized import normalize_text_strings

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
