"""The pure entry point: ``compare(frame, specs, ...) -> ComparisonResult``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy.typing as npt
import pandas as pd

from fieldwise._errors import CompareError
from fieldwise.compare._bootstrap import BootstrapInterval, bootstrap_of_counts
from fieldwise.compare._confidence import calibration_rows, sweep_table
from fieldwise.compare._frame import columns_frame
from fieldwise.compare._lists import list_metrics, row_tests
from fieldwise.compare._outcomes import score_cells
from fieldwise.compare._poisson import document_replicates
from fieldwise.compare._spec import FieldSpec, declared_fields
from fieldwise.compare._stats import holm, significance_from_units
from fieldwise.compare._tables import CellTables, ScoredTables
from fieldwise.compare._truth import SUSPECT_COLUMNS, suspected_truth_errors

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
    documents: pd.DataFrame
    row_counts: pd.DataFrame
    flips: pd.DataFrame
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

    @property
    def cells(self) -> pd.DataFrame:
        """Every scored cell (:data:`~fieldwise.compare._outcomes.CELL_COLUMNS`)."""
        cells = self._cells
        if not isinstance(cells, pd.DataFrame):
            cells = cells()
            object.__setattr__(self, "_cells", cells)
        return cells

    @property
    def versions(self) -> tuple[str, ...]:
        """The baseline, then every candidate."""
        return (self.baseline, *self.candidates)

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
        frames: dict[str, pd.DataFrame] = {}
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


#: Document x replicate weights from which the replicate sums are drawn on a thread of their
#: own while the other tables are computed.
_BACKGROUND_WEIGHTS = 1 << 24


def _bootstraps(
    scored: ScoredTables, baseline: str, candidates: list[str], seed: int, n_resamples: int
) -> Callable[[], dict[str, BootstrapInterval]]:
    """What gives the bootstrap interval of each candidate when called. From scored cells
    with many weights to draw, each document's counts are taken here (pandas, this thread)
    and the replicate sums (numpy and hashlib only: no pandas object, no warnings filter)
    start on a thread of their own, so they run while the caller computes the other tables;
    the interval is read off them (:func:`bootstrap_of_counts`) when called: the same
    figures as :func:`bootstrap_delta` gives."""
    if not isinstance(scored, CellTables):
        return lambda: {
            c: scored.bootstrap(baseline, c, seed=seed, n_resamples=n_resamples) for c in candidates
        }
    counts = {c: scored.bootstrap_columns(baseline, c) for c in candidates}
    size = sum(len(items) for items, _, _ in counts.values()) * n_resamples
    pool = ThreadPoolExecutor(max_workers=1) if size >= _BACKGROUND_WEIGHTS else None

    def replicates(c: str) -> Callable[[], npt.NDArray[Any]]:
        items, _, values = counts[c]
        work = partial(document_replicates, items, values, seed, n_resamples)
        return work if pool is None else pool.submit(work).result

    pending = {c: replicates(c) for c in candidates}
    if pool is not None:
        pool.shutdown(wait=False)  # the submitted sums still run; no more are taken

    def intervals() -> dict[str, BootstrapInterval]:
        return {
            c: bootstrap_of_counts(
                items, weights, values, seed=seed, n_resamples=n_resamples, replicates=pending[c]()
            )
            for c, (items, weights, values) in counts.items()
        }

    return intervals


def compare_scored(
    cells: pd.DataFrame | ScoredTables,
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
) -> ComparisonResult:
    """What :func:`compare` computes once the cells are scored (:func:`score_cells` output):
    every metric, test and interval, without running a comparator. Re-gating stored scored
    cells under another policy goes through here. ``cells`` may also be what computes each
    table without a frame of cells (:class:`~fieldwise.compare._tables.ScoredTables`)."""
    scored = CellTables(cells) if isinstance(cells, pd.DataFrame) else cells
    chosen_candidates = list(candidates)
    confidence_level = 1 - alpha
    bootstraps = _bootstraps(scored, baseline, chosen_candidates, seed, n_bootstrap)
    fields = scored.fields(resolved, confidence_level)
    documents = scored.documents()
    overall = scored.overall(documents, confidence_level)
    found = list(scored.predictions())  # (read once for the calibration and the sweep)
    calibration = calibration_rows(found, target_precision=target_precision)
    accuracy = dict(zip(overall["version"], overall["accuracy"], strict=True))
    flips, significance = significance_from_units(
        {c: scored.flips(baseline, c) for c in chosen_candidates}, alpha=alpha, power=power
    )
    tests = row_tests(row_counts, baseline, chosen_candidates)
    tests["p_holm"] = holm([float(p) for p in tests["p_value"]])
    # suspects need the values of confident wrong cells; without any, no values are read
    suspect_cells = scored.suspect_cells(
        bool(chosen_candidates) and scored.confident_wrong(suspect_confidence)
    )
    suspects = [
        suspected_truth_errors(
            suspect_cells, resolved, baseline, c, min_confidence=suspect_confidence
        ).assign(candidate=c)
        for c in chosen_candidates
    ]
    suspected = (
        pd.concat(suspects, ignore_index=True)
        if suspects
        else pd.DataFrame(columns=[*SUSPECT_COLUMNS, "candidate"])
    )
    empty_columns = scored.empty_columns(baseline, chosen_candidates)
    confidence = sweep_table(found)
    lists = list_metrics(row_counts)
    # the bootstrap's replicate sums are waited for last: every other table is computed
    # while they run
    boots = bootstraps()
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
        warnings=_warnings(significance, row_counts),
        _cells=scored.cells(),
        fields=fields,
        overall=overall,
        documents=documents,
        row_counts=row_counts,
        lists=lists,
        row_tests=tests,
        empty_columns=empty_columns,
        flips=flips,
        significance=significance,
        confidence=confidence,
        calibration=calibration,
        suspected_truth_errors=suspected,
        candidates=tuple(chosen_candidates),
        bootstraps=boots,
        declared_fields=declared_fields(resolved, sorted(fields["field"].astype(str).unique())),
        alpha=alpha,
        power=power,
    )
