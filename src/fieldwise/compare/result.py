"""The pure entry point: ``compare(frame, specs, ...) -> ComparisonResult``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from fieldwise.compare.confidence import calibration_table, confidence_sweep
from fieldwise.compare.metrics import document_table, field_metrics, overall_metrics
from fieldwise.compare.outcomes import score_cells
from fieldwise.compare.spec import FieldSpec
from fieldwise.compare.stats import (
    SIGNIFICANCE_COLUMNS,
    BootstrapInterval,
    bootstrap_delta,
    flip_units,
    significance_table,
)
from fieldwise.compare.truth import SUSPECT_COLUMNS, suspected_truth_errors
from fieldwise.errors import CompareError

__all__ = ["FRAME_NAMES", "ComparisonResult", "compare"]

#: The DataFrame attributes of :class:`ComparisonResult`, in a fixed order.
FRAME_NAMES = (
    "cells",
    "fields",
    "overall",
    "documents",
    "row_counts",
    "flips",
    "significance",
    "confidence",
    "calibration",
    "suspected_truth_errors",
)


@dataclass(frozen=True, eq=False)
class ComparisonResult:
    """Everything :func:`compare` computed; tables are DataFrames, figures plain Python values.

    Frames (see each module's docstring for definitions):
    ``cells`` every scored cell; ``fields`` metrics per (version, field); ``overall`` per version;
    ``documents`` per (version, item); ``row_counts`` array rows expected / predicted / matched;
    ``flips`` per (field, item) transition between the versions; ``significance`` per field flip
    counts, McNemar p, Holm p and power warnings; ``confidence`` the threshold sweep;
    ``calibration`` ECE and recommended threshold per version; ``suspected_truth_errors``.
    Two-version frames are empty and two-version figures ``None`` without a candidate.
    """

    baseline: str
    candidate: str | None
    accuracy_baseline: float
    accuracy_candidate: float | None
    delta: float | None
    bootstrap: BootstrapInterval | None
    recommended_threshold: float | None
    warnings: tuple[str, ...]
    cells: pd.DataFrame
    fields: pd.DataFrame
    overall: pd.DataFrame
    documents: pd.DataFrame
    row_counts: pd.DataFrame
    flips: pd.DataFrame
    significance: pd.DataFrame
    confidence: pd.DataFrame
    calibration: pd.DataFrame
    suspected_truth_errors: pd.DataFrame

    def frames(self) -> dict[str, pd.DataFrame]:
        """The tables by name, in :data:`FRAME_NAMES` order."""
        return {name: getattr(self, name) for name in FRAME_NAMES}


def compare(
    frame: pd.DataFrame,
    specs: Mapping[str, FieldSpec],
    *,
    baseline: str,
    candidate: str | None = None,
    seed: int = 0,
    target_precision: float = 0.95,
    n_bootstrap: int = 1000,
    alpha: float = 0.05,
    suspect_confidence: float = 0.9,
) -> ComparisonResult:
    """Score ``frame`` (see :func:`~fieldwise.compare.build_frame`) field by field.

    ``specs`` come from :func:`~fieldwise.compare.parse_field_specs`; fields without a spec
    compare as folded strings. With ``candidate`` the result also holds the flips, McNemar tests
    (Holm-corrected at ``alpha``), the bootstrap interval of the accuracy delta (``n_bootstrap``
    document resamples, ``seed``) and suspected ground-truth errors. The recommended confidence
    threshold is the candidate's (else the baseline's) lowest threshold reaching
    ``target_precision``. Pure: no I/O, deterministic for a given seed.
    """
    versions = set(frame["version"].unique()) if "version" in frame.columns else set()
    for name in (baseline, candidate):
        if name is not None and name not in versions:
            raise CompareError(f"version {name!r} is not in the comparison frame")
    if candidate == baseline:
        raise CompareError("baseline and candidate are the same version")
    chosen = [v for v in (baseline, candidate) if v is not None]
    cells, row_counts, resolved = score_cells(frame.loc[frame["version"].isin(chosen)], specs)
    fields = field_metrics(cells, resolved)
    documents = document_table(cells)
    overall = overall_metrics(cells, documents)
    calibration = calibration_table(cells, target_precision=target_precision)
    accuracy = dict(zip(overall["version"], overall["accuracy"], strict=True))

    flips = pd.DataFrame(columns=["field", "item", "ok_baseline", "ok_candidate", "transition"])
    significance = pd.DataFrame(columns=list(SIGNIFICANCE_COLUMNS))
    suspects = pd.DataFrame(columns=list(SUSPECT_COLUMNS))
    interval = None
    if candidate is not None:
        flips = flip_units(cells, baseline, candidate)
        significance = significance_table(flips, alpha=alpha)
        interval = bootstrap_delta(cells, baseline, candidate, seed=seed, n_resamples=n_bootstrap)
        suspects = suspected_truth_errors(
            cells, resolved, baseline, candidate, min_confidence=suspect_confidence
        )
    warnings = [w for w in significance.get("warning", pd.Series(dtype=str)) if w]
    mismatched = row_counts.loc[row_counts["row_count_mismatch"].astype(bool)]
    if len(mismatched):
        warnings.append(
            f"{len(mismatched)} array field(s) have a different number of rows "
            "predicted than expected (see row_counts)"
        )
    target = candidate if candidate is not None else baseline
    rec = calibration.loc[calibration["version"] == target, "recommended_threshold"]
    threshold = float(rec.iloc[0]) if len(rec) and pd.notna(rec.iloc[0]) else None
    return ComparisonResult(
        baseline=baseline,
        candidate=candidate,
        accuracy_baseline=float(accuracy[baseline]),
        accuracy_candidate=None if candidate is None else float(accuracy[candidate]),
        delta=None if interval is None else interval.delta,
        bootstrap=interval,
        recommended_threshold=threshold,
        warnings=tuple(warnings),
        cells=cells,
        fields=fields,
        overall=overall,
        documents=documents,
        row_counts=row_counts,
        flips=flips,
        significance=significance,
        confidence=confidence_sweep(cells),
        calibration=calibration,
        suspected_truth_errors=suspects,
    )
