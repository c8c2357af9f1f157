"""Integer document ids ordered as their texts, without writing them."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

from fieldwise.compare.score._document_ids import DocumentIds, decimal_text_order


@pytest.mark.parametrize("seed", range(4))
def test_decimal_text_order_is_sorted_text_order(seed: int) -> None:
    rng = np.random.default_rng(seed)
    numbers = np.concatenate(
        [
            np.arange(0, 1200),
            rng.integers(0, 10**17, 300),
            10 ** np.arange(0, 17),
            10 ** np.arange(1, 17) - 1,
            rng.integers(0, 10**6, 300) * 10,
        ]
    )
    numbers = np.unique(numbers)  # distinct
    rng.shuffle(numbers)
    order, distinct = decimal_text_order(numbers.astype(np.int64))
    assert distinct
    texts = [str(n) for n in numbers.tolist()]
    assert [texts[i] for i in order] == sorted(texts)


def test_decimal_text_order_finds_repeats() -> None:
    assert not decimal_text_order(np.array([5, 10, 5], dtype=np.int64))[1]
    assert decimal_text_order(np.array([1, 10, 100], dtype=np.int64))[1]
    order, distinct = decimal_text_order(np.zeros(0, dtype=np.int64))
    assert distinct
    assert len(order) == 0


@pytest.mark.parametrize(
    "keys",
    [
        pd.Series([3, 10, 1, 0, 22]),
        pd.Series(np.array([3, 10, 1, 0, 22], dtype=np.uint8)),
        pd.Series([-3, 10, 1, -20, 22]),  # negative: as text
        pd.Series([10**18, 3, 2**62]),  # too long for the padded key: as text
        pd.Series(["b", "a", "10", "9"]),
        pd.Series([True, False]),
    ],
)
def test_document_ids_order_and_texts_are_str(keys: pd.Series[Any]) -> None:
    ids = DocumentIds(keys)
    texts = [str(k) for k in keys.tolist()]
    assert ids.texts.to_pylist() == texts
    order = ids.text_order()
    assert order is not None
    assert ids.distinct()
    assert ids.sorted_texts(order).to_pylist() == sorted(texts)
    assert ids.same_rows(DocumentIds(pd.Series(texts, dtype=object)))
    assert not ids.same_rows(DocumentIds(keys[::-1].reset_index(drop=True)))


def test_document_ids_repeat() -> None:
    assert DocumentIds(pd.Series([1, 2, 1])).text_order() is None
    assert not DocumentIds(pd.Series([1, 2, 1])).distinct()
    assert DocumentIds(pd.Series(["1", "2", "1"])).text_order() is None
