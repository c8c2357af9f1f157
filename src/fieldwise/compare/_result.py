"""The pure entry point: ``compare(frame, specs, ...) -> ComparisonResult``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import pandas as pd

from fieldwise._errors import CompareError
from fieldwise.compare._spec import FieldSpec
from fieldwise.compare.score._frame import columns_frame
from fieldwise.compare.score._lists import list_metrics
from fieldwise.compare.score._outcomes import score_cells
from fieldwise.compare.stats._bootstrap import BootstrapInterval
from fieldwise.compare.stats._confidence import calibration_rows, predictions, sweep_table
from fieldwise.compare.stats._field_intervals import field_intervals
from fieldwise.compare.stats._metrics import document_table
from fieldwise.compare.stats._reduce import reduce_statistics
from fieldwise.compare.stats._sufficient import Sufficient, partition_statistics, weight_classes
from fieldwise.compare.stats._truth import SUSPECT_COLUMNS, suspected_truth_errors
from fieldwise.compare.stats._units import flip_units

__all__ = ["FRAME_NAMES", "ComparisonResult", "compare", "compare_scored"]

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
_BY_VERSION = tuple(name for name in FRAME_NAMES if name not in _BY_CANDIDATE)


@dataclass(frozen=True, eq=False)
class ComparisonResult:
    """Everything :func:`compare` computed; tables are DataFrames, figures plain Python values.

    Frames (see each module's docstring for definitions):
    ``cells`` every scored cell; ``fields`` metrics per (version, field); ``overall`` per version;
    ``documents`` per (version, item); ``row_counts`` list rows expected / predicted / matched;
    ``lists`` row recall, cardinality error and truncation prefix per (version, list field);
    ``row_tests`` complete lists lost / gained per (candidate, list field);
    ``empty_columns`` fields a candidate left empty wherever the baseline had values;
    ``flips`` per (candidate, field, item) transition; ``significance`` per (candidate, field)
    flip counts, McNemar p, Holm p (across every candidate), the Newcombe interval of the delta,
    the minimum detectable effect and power warnings; ``confidence`` the threshold sweep;
    ``calibration`` ECE and recommended threshold per version; ``suspected_truth_errors``.

    ``candidates`` are every version compared with the baseline; ``candidate`` (and the figures
    named for it) is the first. :meth:`for_candidate` gives the view of one pair. Candidate
    frames are empty and candidate figures ``None`` without a candidate.
    """

    baseline: str
    candidate: str | None
    accuracy_baseline: float
    accuracy_candidate: float | None
    delta: float | None
    bootstrap: BootstrapInterval | None
    recommended_threshold: float | None
    warnings: tuple[str, ...]
    # the cells, or what lays them out on first read (wide frames: every table is computed
    # without the cells' values, and building a million Python objects is most of the cost)
    _cells: pd.DataFrame | Callable[[], pd.DataFrame] = field(repr=False)
    fields: pd.DataFrame
    overall: pd.DataFrame
    # per-document rows and flipped units: cell-level frames, built when first read (every
    # figure is reduced without them)
    _documents: pd.DataFrame | Callable[[], pd.DataFrame] = field(repr=False)
    row_counts: pd.DataFrame
    _flips: pd.DataFrame | Callable[[], pd.DataFrame] = field(repr=False)
    significance: pd.DataFrame
    confidence: pd.DataFrame
    calibration: pd.DataFrame
    suspected_truth_errors: pd.DataFrame
    lists: pd.DataFrame = field(default_factory=pd.DataFrame)
    row_tests: pd.DataFrame = field(default_factory=pd.DataFrame)
    empty_columns: pd.DataFrame = field(default_factory=pd.DataFrame)
    candidates: tuple[str, ...] = ()
    bootstraps: Mapping[str, BootstrapInterval] = field(default_factory=dict)
    declared_fields: frozenset[str] = frozenset()
    alpha: float = 0.05
    power: float = 0.8
    #: the statistics every figure was reduced from (the cells as one partition)
    statistics: Sufficient | None = field(default=None, repr=False)

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
        documents, flips = frames.pop("documents"), frames.pop("flips")
        for key in ("version",):
            cells[key] = cells[key].cat.remove_unused_categories()
        boot = self.bootstraps.get(candidate)
        accuracy = dict(zip(self.overall["version"], self.overall["accuracy"], strict=True))
        return ComparisonResult(
            baseline=self.baseline,
            candidate=candidate,
            accuracy_baseline=self.accuracy_baseline,
            accuracy_candidate=float(accuracy[candidate]),
            delta=None if boot is None else boot.delta,
            bootstrap=boot,
            recommended_threshold=_threshold(frames["calibration"], candidate),
            warnings=_warnings(frames["significance"], frames["row_counts"]),
            candidates=(candidate,),
            bootstraps={candidate: boot} if boot is not None else {},
            declared_fields=self.declared_fields,
            alpha=self.alpha,
            power=self.power,
            _cells=cells,
            _documents=documents,
            _flips=flips,
            **frames,
        )


def _threshold(calibration: pd.DataFrame, target: str) -> float | None:
    rec = calibration.loc[calibration["version"] == target, "recommended_threshold"]
    return float(rec.iloc[0]) if len(rec) and pd.notna(rec.iloc[0]) else None


def _warnings(significance: pd.DataFrame, row_counts: pd.DataFrame) -> tuple[str, ...]:
    warnings = [str(w) for w in significance.get("warning", pd.Series(dtype=str)) if w]
    mismatched = row_counts.loc[row_counts["row_count_mismatch"].astype(bool)]
    if len(mismatched):
        warnings.append(
            f"{len(mismatched)} list field(s) have a different number of rows "
            "predicted than expected (see row_counts)"
        )
    return tuple(warnings)


def chosen_versions(
    versions: set[str], baseline: str, candidate: str | None, candidates: Sequence[str]
) -> list[str]:
    """The candidates to compare with ``baseline`` (``candidates``, else the one
    ``candidate``), after checking that each is one of ``versions``; raises
    :class:`CompareError` otherwise."""
    chosen_candidates = list(candidates) or ([candidate] if candidate is not None else [])
    if candidate is not None and candidates and candidate not in candidates:
        raise CompareError("give the candidate in candidates, or only one of the two")
    for name in (baseline, *chosen_candidates):
        if name not in versions:
            raise CompareError(f"version {name!r} is not in the comparison frame")
    if baseline in chosen_candidates:
        raise CompareError("baseline and candidate are the same version")
    if len(set(chosen_candidates)) != len(chosen_candidates):
        raise CompareError("a candidate is given twice")
    return chosen_candidates


def compare(
    frame: pd.DataFrame | Mapping[str, Sequence[Any]],
    specs: Mapping[str, FieldSpec],
    *,
    baseline: str,
    candidate: str | None = None,
    candidates: Sequence[str] = (),
    seed: int = 0,
    target_precision: float = 0.95,
    n_bootstrap: int = 1000,
    alpha: float = 0.05,
    power: float = 0.8,
    suspect_confidence: float = 0.9,
) -> ComparisonResult:
    """Score ``frame`` (see :func:`~fieldwise.compare.build_frame`) field by field; ``frame``
    may also be given as its plain columns (column name -> equally long list of values, as
    read from JSON or a pickle), which is what ``pd.DataFrame`` of them would give, built
    faster (string keys go straight to categoricals).

    ``specs`` come from :func:`~fieldwise.compare.parse_field_specs`; fields without a spec
    compare as folded strings. Each of ``candidates`` (or the one ``candidate``) is compared
    with ``baseline``: flips, McNemar tests (Holm-corrected at ``alpha`` across every candidate
    and field), Newcombe intervals and minimum detectable effects at ``power``, the bootstrap
    interval of the accuracy delta (``n_bootstrap`` document resamples, ``seed``), list-row
    tests, all-null columns and suspected ground-truth errors. Wilson intervals are at
    1 - ``alpha``. The recommended confidence threshold is the first candidate's (else the
    baseline's) lowest threshold reaching ``target_precision``. Pure: no I/O, deterministic
    for a given seed.
    """
    if not isinstance(frame, pd.DataFrame):
        frame = columns_frame(frame)
    versions = set(frame["version"].unique()) if "version" in frame.columns else set()
    chosen_candidates = chosen_versions(versions, baseline, candidate, candidates)
    chosen = [baseline, *chosen_candidates]
    cells, row_counts, resolved = score_cells(frame.loc[frame["version"].isin(chosen)], specs)
    return compare_scored(
        cells,
        row_counts,
        resolved,
        baseline=baseline,
        candidates=chosen_candidates,
        seed=seed,
        target_precision=target_precision,
        n_bootstrap=n_bootstrap,
        alpha=alpha,
        power=power,
        suspect_confidence=suspect_confidence,
    )


def _flips(cells: pd.DataFrame, baseline: str, candidates: Sequence[str]) -> pd.DataFrame:
    """Every (candidate, field, item) unit with its transition: the cell-level frame behind
    the flip counts the statistics hold."""
    columns = ["candidate", "field", "item", "ok_baseline", "ok_candidate", "transition"]
    found = [flip_units(cells, baseline, c).assign(candidate=c) for c in candidates]
    if not found:
        return pd.DataFrame(columns=columns)
    return pd.concat(found, ignore_index=True).loc[:, columns]


def compare_scored(
    cells: pd.DataFrame | Callable[[], pd.DataFrame],
    row_counts: pd.DataFrame,
    resolved: Mapping[str, FieldSpec],
    *,
    baseline: str,
    candidates: Sequence[str],
    seed: int = 0,
    target_precision: float = 0.95,
    n_bootstrap: int = 1000,
    alpha: float = 0.05,
    power: float = 0.8,
    suspect_confidence: float = 0.9,
    light: pd.DataFrame | None = None,
) -> ComparisonResult:
    """What :func:`compare` computes once the cells are scored (:func:`score_cells` output).

    Every figure (counts, accuracies, P/R/F1, intervals, flips, McNemar/Holm, MDE, the
    bootstrap, list-row tests, all-null columns) is reduced by
    :func:`~fieldwise.compare.stats._reduce.reduce_statistics` from the statistics of the cells as
    one partition: the same reducer sharded and Dask runs use over many. What only cells can
    give (each document's row, each flipped unit, the confidence sweep and calibration,
    suspected truth errors) is read off the cells. ``cells`` may be what lays them out when
    first read; ``light`` is then the cells without their values (what a wide scorer gives),
    read for everything else."""
    chosen_candidates = list(candidates)
    scored = cells if isinstance(cells, pd.DataFrame) else light
    if scored is None:
        raise ValueError("lazily built cells need their light frame")
    stats = partition_statistics(
        scored,
        baseline=baseline,
        candidates=chosen_candidates,
        weights=weight_classes(resolved),
        seed=seed,
        n_resamples=n_bootstrap,
        row_counts=row_counts,
    )
    reduced = reduce_statistics(stats, specs=resolved, alpha=alpha, power=power)
    found = list(predictions(scored))  # (read once for the calibration and the sweep)
    calibration = calibration_rows(found, target_precision=target_precision)
    accuracy = dict(zip(reduced.overall["version"], reduced.overall["accuracy"], strict=True))
    # suspects need the values of confident wrong cells; without any, no values are read
    confident_wrong = bool(chosen_candidates) and bool(
        ((scored["outcome"] == "wrong") & (scored["confidence"] >= suspect_confidence)).any()
    )
    suspects = [
        suspected_truth_errors(
            _values(cells), resolved, baseline, c, min_confidence=suspect_confidence
        ).assign(candidate=c)
        for c in (chosen_candidates if confident_wrong else [])
    ]
    suspected = (
        pd.concat(suspects, ignore_index=True)
        if suspects
        else pd.DataFrame(columns=[*SUSPECT_COLUMNS, "candidate"])
    )
    boots = dict(reduced.bootstraps)
    first = chosen_candidates[0] if chosen_candidates else None
    interval = boots.get(first) if first is not None else None
    return ComparisonResult(
        baseline=baseline,
        candidate=first,
        accuracy_baseline=float(accuracy[baseline]),
        accuracy_candidate=None if first is None else float(accuracy[first]),
        delta=None if interval is None else interval.delta,
        bootstrap=interval,
        recommended_threshold=_threshold(calibration, first if first is not None else baseline),
        warnings=_warnings(reduced.significance, row_counts),
        _cells=cells,
        fields=reduced.fields,
        overall=reduced.overall,
        _documents=partial(document_table, scored),
        row_counts=row_counts,
        lists=list_metrics(row_counts),
        row_tests=reduced.row_tests,
        empty_columns=reduced.empty_columns,
        _flips=partial(_flips, scored, baseline, tuple(chosen_candidates)),
        significance=reduced.significance,
        confidence=sweep_table(found),
        calibration=calibration,
        suspected_truth_errors=suspected,
        candidates=tuple(chosen_candidates),
        bootstraps=boots,
        declared_fields=reduced.declared_fields,
        alpha=alpha,
        power=power,
        statistics=stats,
    )


def _values(cells: pd.DataFrame | Callable[[], pd.DataFrame]) -> pd.DataFrame:
    return cells if isinstance(cells, pd.DataFrame) else cells()
