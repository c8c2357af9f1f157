"""A document's pattern budget counts the time its searches take, not the time between them.

The rest of the extraction (label matching, the other fields, a busy machine's waits) is no
pattern's doing: a budget kept as a deadline on the clock failed documents whose patterns were
quick whenever the extraction around them was slow.
"""

from __future__ import annotations

import time

import pytest

from fieldwise.service.engines.extraction.patterns import (
    PatternTimeout,
    compiled,
    pattern_budget,
)


def test_time_between_searches_is_not_charged_to_the_patterns() -> None:
    pattern = compiled(r"\d+")
    assert pattern is not None
    with pattern_budget(0.05):
        assert pattern.search("no 1") is not None
        time.sleep(0.1)  # other work of the extraction, longer than the whole budget
        match = pattern.search("no 22")
    assert match is not None
    assert match.group(0) == "22"


def test_a_spent_budget_still_stops_the_next_search() -> None:
    pattern = compiled(r"\d+")
    assert pattern is not None
    with pattern_budget(0.0), pytest.raises(PatternTimeout, match="max_pattern_seconds"):
        pattern.search("no 1")
