"""The document ids of a wide frame, and their order as text.

The general path keys every document by ``str(id)`` and sorts those texts. Integer ids (the
usual ``document`` column: ``0..n-1``) are kept as numbers here: their text order is computed
from the numbers (:func:`decimal_text_order`), repeats are found without a string per id, and
two frames with the same ids in the same rows are told apart by one integer comparison. The
texts are written only once, for the truth's sorted documents.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["DocumentIds", "decimal_text_order"]

IntArray = npt.NDArray[np.intp]

#: Integer ids below this are ordered as numbers (the padded key below stays in int64).
_DECIMAL_LIMIT = 10**17
_POWERS = 10 ** np.arange(1, 18, dtype=np.int64)  # 10 .. 10**17


def decimal_text_order(numbers: npt.NDArray[np.int64]) -> tuple[IntArray, bool]:
    """The order of ``str(n)`` for non-negative integers below 10**17, as ``sorted()`` of the
    texts gives it (code point order), without writing them; and whether no number repeats.

    Texts of digits compare as their digits padded with zeros to one width, the shorter
    first when that ties (then it is a prefix of the longer: ``"1" < "10" < "100"``)."""
    digits = 1 + np.searchsorted(_POWERS, numbers, side="right")
    width = int(digits.max()) if len(digits) else 1
    padded = numbers * (_POWERS[0] ** (width - digits))  # < 10**17
    key = padded * 32 + digits  # digits <= 17 < 32: one int64 key, unique per text
    order = np.asarray(np.argsort(key, kind="stable"), dtype=np.intp)
    ranked = key[order]
    return order, not bool((ranked[1:] == ranked[:-1]).any())


class DocumentIds:
    """The ids of one wide frame in row order: as integers when they are (``numbers``), and
    as Arrow text (``texts``, what the general path keys documents by)."""

    def __init__(self, keys: pd.Series[Any]) -> None:
        self.numbers: npt.NDArray[np.int64] | None = None
        self._texts: pa.Array | None = None
        if isinstance(keys.dtype, np.dtype) and keys.dtype.kind in "iu":
            raw = keys.to_numpy()
            if len(raw) == 0 or (int(raw.min()) >= 0 and int(raw.max()) < _DECIMAL_LIMIT):
                self.numbers = raw.astype(np.int64, copy=False)
            else:  # Arrow writes integers as str() does, without a Python string per id
                self._texts = pc.cast(pa.array(raw), pa.large_string())
        else:
            self._texts = pa.array([str(k) for k in keys.tolist()], type=pa.large_string())

    def __len__(self) -> int:
        return len(self.numbers) if self.numbers is not None else len(self.texts)

    @property
    def texts(self) -> pa.Array:
        """The ids as ``str()`` writes them (Arrow large strings, row order)."""
        if self._texts is None:
            assert self.numbers is not None
            self._texts = pc.cast(pa.array(self.numbers), pa.large_string())
        return self._texts

    def text_order(self) -> IntArray | None:
        """Row numbers in the order of the ids' texts, or ``None`` when an id repeats."""
        if self.numbers is not None:
            order, distinct = decimal_text_order(self.numbers)
            return order if distinct else None
        # Arrow sorts by UTF-8 bytes, which is code point order: what sorted() gives for str
        indices = pc.sort_indices(self.texts)
        if not distinct_sorted(self.texts.take(indices)):
            return None
        return np.asarray(indices, dtype=np.intp)

    def sorted_texts(self, order: IntArray) -> pa.Array:
        """The texts of the ids in ``order`` (written only for those)."""
        if self.numbers is not None and self._texts is None:
            return pc.cast(pa.array(self.numbers[order]), pa.large_string())
        return self.texts.take(pa.array(order))

    def same_rows(self, other: DocumentIds) -> bool:
        """Whether ``other`` holds the same ids (as text) in the same rows."""
        if self.numbers is not None and other.numbers is not None:
            return bool(np.array_equal(self.numbers, other.numbers))
        return bool(self.texts.equals(other.texts))

    def distinct(self) -> bool:
        """Whether no id repeats (as text)."""
        if self.numbers is not None:
            return decimal_text_order(self.numbers)[1]
        return len(self.texts) < 2 or distinct_sorted(self.texts.take(pc.sort_indices(self.texts)))


def distinct_sorted(ranked: pa.Array) -> bool:
    """Whether no two neighbours of sorted texts are equal. Faster than hashing them."""
    if len(ranked) < 2:
        return True
    return not pc.any(pc.equal(ranked.slice(1), ranked.slice(0, len(ranked) - 1))).as_py()
