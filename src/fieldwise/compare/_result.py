"""The pure entry point: ``compare(frame, specs, ...) -> ComparisonResult``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

import pandas as pd

from fieldwise._errors import CompareError
from fieldwise.compare._codes import CodedCells
from fieldwise.compare._comparison import ComparisonResult, threshold, warnings_of
from fieldwise.compare._spec import FieldSpec
from fieldwise.compare.score._frame import columns_frame
from fieldwise.compare.score._lists import list_metrics
from fieldwise.compare.score._outcomes import OUTCOMES, score_cells
from fieldwise.compare.stats._confidence import calibration_table, confidence_sweep, predictions
from fieldwise.compare.stats._metrics import document_table
from fieldwise.compare.stats._reduce import reduce_statistics
from fieldwise.compare.stats._sufficient import partition_statistics, weight_classes
from fieldwise.compare.stats._truth import SUSPECT_COLUMNS, suspected_truth_errors
from fieldwise.compare.stats._units import flip_units

__all__ = ["compare", "compare_scored"]


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


def _documents(cells: pd.DataFrame | Callable[[], pd.DataFrame]) -> pd.DataFrame:
    return document_table(_values(cells))


def _flips(
    cells: pd.DataFrame | Callable[[], pd.DataFrame], baseline: str, candidates: Sequence[str]
) -> pd.DataFrame:
    """Every (candidate, field, item) unit with its transition: the cell-level frame behind
    the flip counts the statistics hold."""
    columns = ["candidate", "field", "item", "ok_baseline", "ok_candidate", "transition"]
    frame = _values(cells)
    found = [flip_units(frame, baseline, c).assign(candidate=c) for c in candidates]
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
    coded: CodedCells | None = None,
) -> ComparisonResult:
    """What :func:`compare` computes once the cells are scored (:func:`score_cells` output).

    Every figure (counts, accuracies, P/R/F1, intervals, flips, McNemar/Holm, MDE, the
    bootstrap, list-row tests, all-null columns) is reduced by
    :func:`~fieldwise.compare.stats._reduce.reduce_statistics` from the statistics of the cells as
    one partition: the same reducer sharded and Dask runs use over many. What only cells can
    give (each document's row, each flipped unit, the confidence sweep and calibration,
    suspected truth errors) is read off the cells. ``cells`` may be what lays them out when
    first read; ``coded`` is then the cells as codes (what a wide scorer gives), read for
    everything else, and the per-document rows and flips are built from the cells when read."""
    chosen_candidates = list(candidates)
    if coded is None:
        if not isinstance(cells, pd.DataFrame):
            raise ValueError("lazily built cells need their codes")
        coded = CodedCells.of(cells)
    stats = partition_statistics(
        coded,
        baseline=baseline,
        candidates=chosen_candidates,
        weights=weight_classes(resolved),
        seed=seed,
        n_resamples=n_bootstrap,
        row_counts=row_counts,
    )
    reduced = reduce_statistics(stats, specs=resolved, alpha=alpha, power=power)
    found = list(predictions(coded))  # (read once for the calibration and the sweep)
    calibration = calibration_table(found, target_precision=target_precision)
    # suspects need the values of confident wrong cells; without any, no values are read
    wrong = OUTCOMES.index("wrong")
    confident_wrong = bool(chosen_candidates) and any(
        bool(((b.outcome == wrong) & (b.confidence >= suspect_confidence)).any())
        for b in coded.blocks
        if b.confidence is not None
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
    first = chosen_candidates[0] if chosen_candidates else baseline
    return replace(
        reduced,
        recommended_threshold=threshold(calibration, first),
        warnings=warnings_of(reduced.significance, row_counts),
        _cells=cells,
        _documents=partial(_documents, cells),
        row_counts=row_counts,
        lists=list_metrics(row_counts),
        _flips=partial(_flips, cells, baseline, tuple(chosen_candidates)),
        confidence=confidence_sweep(found),
        calibration=calibration,
        suspected_truth_errors=suspected,
    )


def _values(cells: pd.DataFrame | Callable[[], pd.DataFrame]) -> pd.DataFrame:
    return cells if isinstance(cells, pd.DataFrame) else cells()
