"""What every table of a comparison is computed from: the scored cells (:class:`CellTables`),
or wide columns scored one by one (:class:`~fieldwise.compare._column_tables.ColumnTables`),
behind one interface, so :func:`~fieldwise.compare._result.compare_scored` puts the result
together the same way from either."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise.compare._bootstrap import BootstrapInterval, bootstrap_columns, bootstrap_delta
from fieldwise.compare._confidence import Predictions, predictions
from fieldwise.compare._metrics import document_table, field_metrics, overall_metrics
from fieldwise.compare._nulls import empty_columns
from fieldwise.compare._spec import FieldSpec
from fieldwise.compare._stats import flip_units, transition_counts

__all__ = ["CellTables", "ScoredTables"]


class ScoredTables(Protocol):
    """The per-table computations of :func:`~fieldwise.compare._result.compare_scored`."""

    def fields(self, specs: Mapping[str, FieldSpec], confidence: float) -> pd.DataFrame:
        """:func:`~fieldwise.compare._metrics.field_metrics`."""

    def documents(self) -> pd.DataFrame:
        """:func:`~fieldwise.compare._metrics.document_table`."""

    def overall(self, documents: pd.DataFrame, confidence: float) -> pd.DataFrame:
        """:func:`~fieldwise.compare._metrics.overall_metrics`."""

    def predictions(self) -> Iterable[Predictions]:
        """:func:`~fieldwise.compare._confidence.predictions`."""

    def flips(self, baseline: str, candidate: str) -> tuple[pd.DataFrame, pd.DataFrame]:
        """:func:`~fieldwise.compare._stats.flip_units` and its transition counts."""

    def empty_columns(self, baseline: str, candidates: Sequence[str]) -> pd.DataFrame:
        """:func:`~fieldwise.compare._nulls.empty_columns`."""

    def bootstrap(
        self, baseline: str, candidate: str, *, seed: int, n_resamples: int
    ) -> BootstrapInterval:
        """:func:`~fieldwise.compare._bootstrap.bootstrap_delta`."""

    def confident_wrong(self, min_confidence: float) -> bool:
        """Whether any cell is wrong with a confidence of at least ``min_confidence``."""

    def cells(self) -> pd.DataFrame | Callable[[], pd.DataFrame]:
        """The cells, or what lays them out when first read."""

    def suspect_cells(self, needed: bool) -> pd.DataFrame:
        """The cells suspected truth errors are looked for in: all of them when ``needed``
        (else may be none, with every cell column)."""


class CellTables:
    """Every table from the scored cells (:data:`~fieldwise.compare.CELL_COLUMNS`)."""

    def __init__(self, cells: pd.DataFrame) -> None:
        self._cells = cells

    def fields(self, specs: Mapping[str, FieldSpec], confidence: float) -> pd.DataFrame:
        return field_metrics(self._cells, specs, confidence=confidence)

    def documents(self) -> pd.DataFrame:
        return document_table(self._cells)

    def overall(self, documents: pd.DataFrame, confidence: float) -> pd.DataFrame:
        return overall_metrics(self._cells, documents, confidence=confidence)

    def predictions(self) -> Iterable[Predictions]:
        return predictions(self._cells)

    def flips(self, baseline: str, candidate: str) -> tuple[pd.DataFrame, pd.DataFrame]:
        units = flip_units(self._cells, baseline, candidate)
        return units, transition_counts(units)

    def empty_columns(self, baseline: str, candidates: Sequence[str]) -> pd.DataFrame:
        return empty_columns(self._cells, baseline, candidates)

    def bootstrap(
        self, baseline: str, candidate: str, *, seed: int, n_resamples: int
    ) -> BootstrapInterval:
        return bootstrap_delta(self._cells, baseline, candidate, seed=seed, n_resamples=n_resamples)

    def bootstrap_columns(
        self, baseline: str, candidate: str
    ) -> tuple[npt.NDArray[np.str_], tuple[float, ...], npt.NDArray[Any]]:
        """:func:`~fieldwise.compare._bootstrap.bootstrap_columns` (what :meth:`bootstrap`
        draws its replicates from)."""
        return bootstrap_columns(self._cells, baseline, candidate)

    def confident_wrong(self, min_confidence: float) -> bool:
        cells = self._cells
        return bool(((cells["outcome"] == "wrong") & (cells["confidence"] >= min_confidence)).any())

    def cells(self) -> pd.DataFrame:
        return self._cells

    def suspect_cells(self, needed: bool) -> pd.DataFrame:
        return self._cells
