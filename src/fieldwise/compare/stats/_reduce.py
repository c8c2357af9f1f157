"""Every figure from merged sufficient statistics alone: a comparison result without cells.

:func:`reduce_statistics` is the one place figures are read off
:class:`~fieldwise.compare.stats._sufficient.Sufficient`, whichever executor produced it, so the
in-process and the distributed result are equal when their statistics are (and they are:
integer sums). Field metrics use :func:`~fieldwise.compare.outcome_metrics` on the counts,
flips and McNemar p-values :func:`~fieldwise.compare.stats._paired.significance_from_counts`, the
bootstrap :func:`~fieldwise.compare.stats._bootstrap.bootstrap_interval`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from fieldwise.compare._comparison import ComparisonResult, warnings_of
from fieldwise.compare._spec import FieldSpec, declared_fields
from fieldwise.compare.score._lists import ROW_TEST_COLUMNS
from fieldwise.compare.score._outcomes import OUTCOMES, cell_specs
from fieldwise.compare.stats._bootstrap import bootstrap_interval
from fieldwise.compare.stats._distributions import mcnemar_exact
from fieldwise.compare.stats._intervals import wilson_bounds
from fieldwise.compare.stats._metrics import outcome_metrics
from fieldwise.compare.stats._paired import holm, significance_from_counts
from fieldwise.compare.stats._sufficient import CALIBRATION_BINS, Sufficient
from fieldwise.compare.stats._units import TRANSITIONS

__all__ = ["EMPTY_COLUMN_COLUMNS", "FIELD_COLUMNS", "reduce_statistics"]


#: The columns of the all-null columns table: fields a candidate left empty in every document
#: where the baseline had a value.
EMPTY_COLUMN_COLUMNS = ("candidate", "field", "baseline_documents", "expected_documents")

#: The columns of the fields table, in order.
FIELD_COLUMNS = (
    "version",
    "field",
    "type",
    "weight",
    "critical",
    *OUTCOMES,
    "support",
    "n_cells",
    "field_accuracy",
    "field_accuracy_low",
    "field_accuracy_high",
    "strict_accuracy",
    "accuracy",
    "precision",
    "recall",
    "f1",
    "mean_score",
)


def _fields(stats: Sufficient, specs: Mapping[str, FieldSpec], confidence: float) -> pd.DataFrame:
    """Per (version, field): type, weight and critical (from ``specs``), outcome counts,
    support, cells, :func:`outcome_metrics`, the Wilson interval of field accuracy at
    ``confidence`` over expected cells, and ``mean_score``: the mean cell score over cells
    that are not both_empty (partial credit: fuzzy text keeps its similarity; NaN when every
    cell is both_empty)."""
    resolved = cell_specs(sorted({name for _, name in stats.outcomes}), specs)
    rows = []
    for (version, name), counts in sorted(stats.outcomes.items()):
        by_outcome = dict(zip(OUTCOMES, counts, strict=True))
        support = by_outcome["correct"] + by_outcome["wrong"] + by_outcome["missed"]
        scored = sum(counts) - by_outcome["both_empty"]
        score_sum = stats.score_sums.get((version, name))
        rows.append(
            {
                "version": version,
                "field": name,
                "type": resolved[name].type,
                "weight": stats.field_weights.get(name, 1.0),
                "critical": resolved[name].critical,
                **by_outcome,
                "support": support,
                "n_cells": sum(counts),
                **outcome_metrics({o: float(c) for o, c in by_outcome.items()}),
                "mean_score": (
                    score_sum / scored if scored and score_sum is not None else float("nan")
                ),
            }
        )
    out = pd.DataFrame(rows, columns=list(FIELD_COLUMNS))
    out["field_accuracy_low"], out["field_accuracy_high"] = wilson_bounds(
        out["correct"].to_numpy(dtype=np.float64),
        out["support"].to_numpy(dtype=np.float64),
        confidence=confidence,
    )
    return out


def _overall(stats: Sufficient, versions: tuple[str, ...], confidence: float) -> pd.DataFrame:
    rows = []
    for version in versions:
        weighted = dict.fromkeys(OUTCOMES, 0.0)
        support = n_cells = 0
        for (v, name), counts in sorted(stats.outcomes.items()):
            if v != version:
                continue
            w = stats.field_weights.get(name, 1.0)
            for o, c in zip(OUTCOMES, counts, strict=True):
                weighted[o] += w * c
            support += counts[0] + counts[1] + counts[2]
            n_cells += sum(counts)
        docs, all_ok = stats.documents.get(version, (0, 0))
        rows.append(
            {
                "version": version,
                "support": support,
                "n_cells": n_cells,
                "documents": docs,
                "all_fields_correct_rate": all_ok / docs if docs else float("nan"),
                **outcome_metrics(weighted),
            }
        )
    out = pd.DataFrame(rows)
    # the weighted share over the unweighted count of expected cells
    expected = out["support"].to_numpy(dtype=np.float64)
    out["field_accuracy_low"], out["field_accuracy_high"] = wilson_bounds(
        out["field_accuracy"].to_numpy(dtype=np.float64) * expected, expected, confidence=confidence
    )
    return out


def _calibration(stats: Sufficient) -> pd.DataFrame:
    rows = []
    for version, counts in sorted(stats.calibration.items()):
        n, k = counts[:CALIBRATION_BINS], counts[CALIBRATION_BINS:]
        for b in range(CALIBRATION_BINS):
            if n[b]:
                rows.append(
                    {
                        "version": version,
                        "low": b / CALIBRATION_BINS,
                        "high": (b + 1) / CALIBRATION_BINS,
                        "predictions": n[b],
                        "correct": k[b],
                        "accuracy": k[b] / n[b],
                    }
                )
    columns = ["version", "low", "high", "predictions", "correct", "accuracy"]
    return pd.DataFrame(rows, columns=columns)


def _row_tests(stats: Sufficient) -> pd.DataFrame:
    rows = []
    for candidate in stats.candidates:
        for (cand, name), counts in sorted(stats.list_rows.items()):
            documents, expected, matched_b, matched_c, regressed, fixed = counts
            if cand != candidate or not documents:
                continue
            rows.append(
                {
                    "candidate": candidate,
                    "field": name,
                    "documents": documents,
                    "row_recall_baseline": matched_b / float(expected) if expected else np.nan,
                    "row_recall_candidate": matched_c / float(expected) if expected else np.nan,
                    "regressed": regressed,
                    "fixed": fixed,
                    "p_value": mcnemar_exact(regressed, fixed),
                }
            )
    out = pd.DataFrame(rows, columns=list(ROW_TEST_COLUMNS))
    out["p_holm"] = holm([float(p) for p in out["p_value"]])
    return out


def _empty_columns(stats: Sufficient) -> pd.DataFrame:
    present = {v for (v, _), counts in stats.outcomes.items() if sum(counts)}
    rows = []
    for candidate in stats.candidates:
        if candidate not in present:
            continue
        for (cand, name), (had, kept, expected) in sorted(stats.kept_values.items()):
            if cand == candidate and had and not kept:
                rows.append(
                    {
                        "candidate": candidate,
                        "field": name,
                        "baseline_documents": had,
                        "expected_documents": expected,
                    }
                )
    return pd.DataFrame(rows, columns=list(EMPTY_COLUMN_COLUMNS))


def reduce_statistics(
    stats: Sufficient,
    *,
    specs: Mapping[str, FieldSpec] | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    confidence: float = 0.95,
    executor: str = "in-process",
) -> ComparisonResult:
    """The figures of merged ``stats`` (see the module docstring), without cells; ``specs``
    give each field's type and critical flag (fields without one compare as folded strings)."""
    counts: dict[str, pd.DataFrame] = {}
    for candidate in stats.candidates:
        rows = {
            name: c for (cand, name), c in sorted(stats.transitions.items()) if cand == candidate
        }
        table = pd.DataFrame.from_dict(rows, orient="index", columns=list(TRANSITIONS))
        table.index.name = "field"
        counts[candidate] = table.astype("int64")
    boots = {
        c: bootstrap_interval(
            stats.boot_totals[c],
            stats.boot_replicates[c],
            stats.weights,
            documents=stats.boot_documents.get(c, 0),
            seed=stats.seed,
            confidence=confidence,
        )
        for c in stats.candidates
        if c in stats.boot_totals
    }
    significance = significance_from_counts(counts, alpha=alpha, power=power)
    return ComparisonResult(
        baseline=stats.baseline,
        candidates=stats.candidates,
        fields=_fields(stats, specs or {}, 1 - alpha),
        overall=_overall(stats, (stats.baseline, *stats.candidates), 1 - alpha),
        significance=significance,
        calibration_bins=_calibration(stats),
        bootstraps=boots,
        executor=executor,
        partitions=stats.partitions,
        row_tests=_row_tests(stats),
        empty_columns=_empty_columns(stats),
        alpha=alpha,
        power=power,
        warnings=warnings_of(significance),
        statistics=stats,
        declared_fields=declared_fields(specs or {}, sorted({n for _, n in stats.outcomes})),
    )
