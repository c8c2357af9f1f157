"""The one result type of a comparison: :class:`ComparisonResult`.

Its figures are reduced from sufficient statistics
(:func:`~fieldwise.compare.stats._reduce.reduce_statistics`), whichever executor merged them;
what only cells can give (the cells, each document's row, each flipped unit, the confidence
sweep, calibration and suspected truth errors) is added by
:func:`~fieldwise.compare.compare` when the cells are at hand, the cell-level frames built
when first read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from fieldwise._errors import CompareError
from fieldwise.compare.score._lists import LIST_COLUMNS
from fieldwise.compare.stats._bootstrap import BootstrapInterval
from fieldwise.compare.stats._field_intervals import field_intervals
from fieldwise.compare.stats._sufficient import Sufficient

__all__ = ["FRAME_NAMES", "ComparisonResult", "threshold", "warnings_of"]

#: The DataFrame attributes of :class:`ComparisonResult`, in a fixed order.
FRAME_NAMES = (
    "cells",
    "fields",
    "overall",
    "documents",
    "row_counts",
    "lists",
    "row_tests",
    "empty_columns",
    "flips",
    "significance",
    "confidence",
    "calibration",
    "suspected_truth_errors",
)

#: Frames keyed by candidate; the others are keyed by version (a pair view keeps the baseline
#: and the chosen candidate).
_BY_CANDIDATE = ("row_tests", "empty_columns", "flips", "significance", "suspected_truth_errors")
_BY_VERSION = (*(name for name in FRAME_NAMES if name not in _BY_CANDIDATE), "calibration_bins")


def _no_cells() -> pd.DataFrame:
    raise CompareError(
        "these figures were reduced from merged statistics: they hold no cells "
        "(compare the run set in process to read cells, documents or flips)"
    )


@dataclass(frozen=True, eq=False, kw_only=True)
class ComparisonResult:
    """Everything a comparison computed; tables are DataFrames, figures plain Python values.

    Frames (see each module's docstring for definitions):
    ``cells`` every scored cell; ``fields`` metrics per (version, field); ``overall`` per version;
    ``documents`` per (version, item); ``row_counts`` list rows expected / predicted / matched;
    ``lists`` row recall, cardinality error and truncation prefix per (version, list field);
    ``row_tests`` complete lists lost / gained per (candidate, list field);
    ``empty_columns`` fields a candidate left empty wherever the baseline had values;
    ``flips`` per (candidate, field, item) transition; ``significance`` per (candidate, field)
    flip counts, McNemar p, Holm p (across every candidate), the Newcombe interval of the delta,
    the minimum detectable effect and power warnings; ``confidence`` the threshold sweep;
    ``calibration`` ECE and recommended threshold per version; ``calibration_bins`` predictions
    and correct ones per (version, confidence bin); ``suspected_truth_errors``.

    ``candidates`` are every version compared with the baseline; ``candidate`` (and the figures
    named for it) is the first. :meth:`for_candidate` gives the view of one pair. Candidate
    frames are empty and candidate figures ``None`` without a candidate.

    Reduced from merged statistics alone (sharded and Dask runs), the result holds no cells:
    reading ``cells``, ``documents`` or ``flips`` raises :class:`CompareError`, and the frames
    that need cells (``row_counts``, ``lists``, ``confidence``, ``calibration``,
    ``suspected_truth_errors``) are empty. ``executor`` and ``partitions`` say how it ran.
    """

    baseline: str
    candidates: tuple[str, ...] = ()
    fields: pd.DataFrame
    overall: pd.DataFrame
    significance: pd.DataFrame
    calibration_bins: pd.DataFrame
    row_tests: pd.DataFrame = field(default_factory=pd.DataFrame)
    empty_columns: pd.DataFrame = field(default_factory=pd.DataFrame)
    bootstraps: Mapping[str, BootstrapInterval] = field(default_factory=dict)
    declared_fields: frozenset[str] = frozenset()
    alpha: float = 0.05
    power: float = 0.8
    warnings: tuple[str, ...] = ()
    executor: str = "in-process"
    partitions: int = 1
    #: the statistics every figure was reduced from
    statistics: Sufficient | None = field(default=None, repr=False)
    #: the threshold sweep needs every confidence: not among the merged counts
    recommended_threshold: float | None = None
    # the cells, or what lays them out on first read (wide frames: every table is computed
    # without the cells' values, and building a million Python objects is most of the cost);
    # per-document rows and flipped units likewise (every figure is reduced without them)
    _cells: pd.DataFrame | Callable[[], pd.DataFrame] = field(default=_no_cells, repr=False)
    _documents: pd.DataFrame | Callable[[], pd.DataFrame] = field(default=_no_cells, repr=False)
    _flips: pd.DataFrame | Callable[[], pd.DataFrame] = field(default=_no_cells, repr=False)
    row_counts: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: row recall per list field needs each document's rows: not among the merged counts
    lists: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=list(LIST_COLUMNS)))
    confidence: pd.DataFrame = field(default_factory=pd.DataFrame)
    calibration: pd.DataFrame = field(default_factory=pd.DataFrame)
    suspected_truth_errors: pd.DataFrame = field(default_factory=pd.DataFrame)

    @property
    def cells(self) -> pd.DataFrame:
        """Every scored cell (:data:`~fieldwise.compare.score._outcomes.CELL_COLUMNS`)."""
        return self._built("_cells")

    @property
    def documents(self) -> pd.DataFrame:
        """One row per (version, item): cells, ok cells and whether all are ok."""
        return self._built("_documents")

    @property
    def flips(self) -> pd.DataFrame:
        """One row per (candidate, field, item) unit: ok in each version and the transition."""
        return self._built("_flips")

    def _built(self, name: str) -> pd.DataFrame:
        frame: pd.DataFrame | Callable[[], pd.DataFrame] = getattr(self, name)
        if not isinstance(frame, pd.DataFrame):
            frame = frame()
            object.__setattr__(self, name, frame)
        return frame

    @property
    def versions(self) -> tuple[str, ...]:
        """The baseline, then every candidate."""
        return (self.baseline, *self.candidates)

    @property
    def candidate(self) -> str | None:
        """The first candidate (``None`` without one)."""
        return self.candidates[0] if self.candidates else None

    @property
    def bootstrap(self) -> BootstrapInterval | None:
        """The bootstrap interval of the first candidate's accuracy delta."""
        return None if self.candidate is None else self.bootstraps.get(self.candidate)

    @property
    def delta(self) -> float | None:
        """The first candidate's accuracy minus the baseline's (``None`` without a bootstrap)."""
        return None if self.bootstrap is None else self.bootstrap.delta

    @property
    def accuracy_baseline(self) -> float:
        """The baseline's weighted field accuracy."""
        return self._accuracy(self.baseline)

    @property
    def accuracy_candidate(self) -> float | None:
        """The first candidate's weighted field accuracy."""
        return None if self.candidate is None else self._accuracy(self.candidate)

    def _accuracy(self, version: str) -> float:
        overall = self.overall
        return float(overall.loc[overall["version"] == version, "accuracy"].iloc[0])

    def field_intervals(self) -> dict[str, tuple[float, float]]:
        """Field -> percentile interval (low, high) of the candidate's cell-accuracy delta,
        resampling documents with the seed, resample count and confidence of the overall
        bootstrap (:func:`~fieldwise.compare.field_intervals`); empty without a candidate.
        Computed here, so the report only formats it."""
        boot = self.bootstrap
        if self.candidate is None or boot is None:
            return {}
        return field_intervals(
            self.cells,
            self.baseline,
            self.candidate,
            seed=boot.seed,
            n_resamples=boot.n_resamples,
            confidence=boot.confidence,
        )

    def frames(self) -> dict[str, pd.DataFrame]:
        """The tables by name, in :data:`FRAME_NAMES` order."""
        return {name: getattr(self, name) for name in FRAME_NAMES}

    def for_candidate(self, candidate: str) -> ComparisonResult:
        """The baseline against ``candidate`` alone (p-values keep the Holm adjustment made
        across every candidate). Raises :class:`CompareError` for an unknown candidate."""
        if candidate not in self.candidates:
            raise CompareError(f"version {candidate!r} is not a candidate of this comparison")
        if self.candidates == (candidate,):
            return self
        pair = {self.baseline, candidate}
        frames: dict[str, Any] = {}  # (DataFrames, passed by name below)
        for name in _BY_VERSION:
            frame = getattr(self, name)
            keep = frame["version"].astype(str).isin(pair) if "version" in frame else None
            frames[name] = frame if keep is None else frame.loc[keep.to_numpy()]
        for name in _BY_CANDIDATE:
            frame = getattr(self, name)
            keep = frame["candidate"] == candidate if "candidate" in frame else None
            frames[name] = frame if keep is None else frame.loc[keep.to_numpy()]
        frames = {k: v.reset_index(drop=True) for k, v in frames.items()}
        cells = frames.pop("cells")
        cells["version"] = cells["version"].cat.remove_unused_categories()
        boot = self.bootstraps.get(candidate)
        return replace(
            self,
            candidates=(candidate,),
            bootstraps={candidate: boot} if boot is not None else {},
            recommended_threshold=threshold(frames["calibration"], candidate),
            warnings=warnings_of(frames["significance"], frames["row_counts"]),
            statistics=None,  # (those of every candidate: not this pair's)
            _cells=cells,
            _documents=frames.pop("documents"),
            _flips=frames.pop("flips"),
            **frames,
        )


def threshold(calibration: pd.DataFrame, target: str) -> float | None:
    """The recommended confidence threshold of ``target`` in a calibration table."""
    rec = calibration.loc[calibration["version"] == target, "recommended_threshold"]
    return float(rec.iloc[0]) if len(rec) and pd.notna(rec.iloc[0]) else None


def warnings_of(
    significance: pd.DataFrame, row_counts: pd.DataFrame | None = None
) -> tuple[str, ...]:
    """The tests' power warnings, then one about list fields whose row counts differ (known
    from cells only)."""
    warnings = [str(w) for w in significance.get("warning", pd.Series(dtype=str)) if w]
    mismatched = (
        0 if row_counts is None else int(row_counts["row_count_mismatch"].astype(bool).sum())
    )
    if mismatched:
        warnings.append(
            f"{mismatched} list field(s) have a different number of rows "
            "predicted than expected (see row_counts)"
        )
    return tuple(warnings)
