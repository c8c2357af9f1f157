"""``benchmarks/engine_accuracy.py``'s tune / judge split of a set that is the only one of its
kind (issue 40): by position alone; the judged half is marked, so its errors are never shown."""

from __future__ import annotations

import tomllib
from types import ModuleType

import pytest

from tests.benchmarks.modules import BENCHMARKS, load


@pytest.fixture(scope="module")
def accuracy() -> ModuleType:
    load("_shared")  # the script imports these by bare name
    load("_abstaining")
    return load("engine_accuracy")


FILES = [f"documents/{n:03d}.jpg" for n in (7, 1, 13, 5, 19)]


def test_a_split_set_is_cut_at_tune_first_in_the_given_order(accuracy: ModuleType) -> None:
    protocol = {"split": {"receipts": {"tune_first": 2}}}
    tune, judge = accuracy.halves("receipts", FILES, protocol)
    # the order given (ground_truth.jsonl's), not the names' sort order, decides
    assert tune.files == {"documents/007.jpg", "documents/001.jpg"}
    assert judge.files == {"documents/013.jpg", "documents/005.jpg", "documents/019.jpg"}
    assert (tune.judged, judge.judged) == (False, True)
    assert (tune.label, judge.label) == (" tune", " judge")


def test_a_set_without_a_split_is_one_whole_unjudged_part(accuracy: ModuleType) -> None:
    (whole,) = accuracy.halves("invoices", FILES, {"split": {"receipts": {"tune_first": 2}}})
    assert whole.files == set(FILES)
    assert not whole.judged
    assert whole.label == ""


def test_a_partial_run_inside_the_tune_half_judges_nothing(accuracy: ModuleType) -> None:
    (tune,) = accuracy.halves("receipts", FILES[:2], {"split": {"receipts": {"tune_first": 3}}})
    assert tune.files == set(FILES[:2])
    assert not tune.judged


def test_a_split_that_tunes_on_nothing_is_refused(accuracy: ModuleType) -> None:
    with pytest.raises(ValueError, match="tune_first must be positive"):
        accuracy.halves("receipts", FILES, {"split": {"receipts": {"tune_first": 0}}})


def test_the_protocol_splits_the_only_receipt_set(accuracy: ModuleType) -> None:
    protocol = tomllib.loads((BENCHMARKS / "real" / "protocol.toml").read_text("utf-8"))
    receipts = [name for name, kind in protocol["kind"].items() if kind == "receipt"]
    assert receipts == ["sroie-dev"]
    assert protocol["split"]["sroie-dev"]["tune_first"] == 50
    assert "sroie-dev" in protocol["tune"]
