"""``new_id``: the prefix, the length and alphabet, and characters as uniform as
``secrets.choice`` gave them."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from scipy.stats import chisquare

from fieldwise.service import ids
from fieldwise.service.ids import new_id


def test_an_id_is_its_prefix_and_random_base36_text() -> None:
    made = {new_id("file") for _ in range(2000)}
    assert len(made) == 2000
    assert all(re.fullmatch(r"file_[0-9a-z]{20}", m) for m in made)
    assert re.fullmatch(r"proc_[0-9a-z]{12}", new_id("proc", 12))
    assert re.fullmatch(r"x_[0-9a-z]", new_id("x", 1))


def test_every_character_stands_for_as_many_random_bytes() -> None:
    """Uniform by construction: each of the 36 characters is picked by 7 byte values, and the
    4 bytes left over are dropped, not folded onto the first characters."""
    kept = Counter(ids._PICK.replace(bytes((ids._DROPPED,)), b""))
    assert sorted(chr(c) for c in kept) == sorted(ids._ALPHABET)
    assert set(kept.values()) == {7}
    assert ids._PICK.count(ids._DROPPED) == 4
    assert ids._PICK[252:] == bytes((ids._DROPPED,)) * 4


def test_characters_are_uniform() -> None:
    counts = Counter("".join(new_id("t")[2:] for _ in range(5000)))  # 100,000 characters
    observed = [counts[c] for c in ids._ALPHABET]
    # fails by chance once in 10^9 runs; b % 36 over all 256 byte values (8 values for the
    # first four characters, 7 for the others) would fail it every time
    assert chisquare(observed).pvalue > 1e-9


def test_dropped_bytes_are_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    draws = iter([b"\xff" * 24, b"\xfc\x00\x01" + b"\xfd" * 21, bytes(range(24))])
    monkeypatch.setattr(ids.secrets, "token_bytes", lambda n: next(draws)[:n])
    assert new_id("f") == "f_01" + "0123456789abcdefghijklmnop"[:18]
