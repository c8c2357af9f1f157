"""Abstaining when unsure: ``abstain_below`` leaves out a value the engine doubts.

Generated text invoices: one prints its total once under a clear label (the engine is sure),
the other prints two different totals under equally good labels (the engine cannot tell them
apart, so its confidence drops by the ambiguity factor).
"""

from __future__ import annotations

from typing import Any

import pytest

from fieldwise._errors import ConfigError
from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.parsing import parse_document

CLEAR = ("Invoice date    03/04/2024", "Total           120.00")
TORN = ("Invoice date    03/04/2024", "Total           120.00", "Total           99.00")


def _run(lines: tuple[str, ...], **top: Any) -> dict[str, Any]:
    config = validate_config(
        {
            **top,
            "fields": [
                {"name": "total", "type": "currency", "labels": ["Total"]},
                {"name": "date", "type": "date", "labels": ["Invoice date"]},
            ],
        }
    )
    text = "\n".join(["INVOICE 77", "", *lines]) + "\n"
    return extract(parse_document(text.encode(), filename="doc.txt"), config)


def test_without_the_option_every_found_value_is_given() -> None:
    out = _run(TORN)
    assert out["value"]["total"] == 120.0
    assert out["metadata"]["total"]["confidence"] < 0.75  # the two totals disagree


def test_a_doubted_value_is_left_out_and_a_sure_one_kept() -> None:
    torn = _run(TORN, abstain_below=0.75)["value"]
    assert "total" not in torn
    assert torn["date"] == "2024-04-03"
    assert _run(CLEAR, abstain_below=0.75)["value"]["total"] == 120.0


@pytest.mark.parametrize("bad", [1.5, -0.1, "high", True])
def test_a_bad_abstain_value_is_refused_by_name(bad: Any) -> None:
    with pytest.raises(ConfigError, match="abstain_below"):
        _run(CLEAR, abstain_below=bad)
