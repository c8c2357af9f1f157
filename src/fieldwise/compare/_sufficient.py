"""Mergeable sufficient statistics: what one partition of scored cells contributes.

A partition is a set of whole documents (every cell of every version of a document lies in
the same partition). From its scored cells, :func:`partition_statistics` keeps only integer
counts: outcome counts per (version, field), documents and all-correct documents per version,
flip counts (both_right, regressed, fixed, both_wrong) per (candidate, field), calibration bins
(cells with a confidence, and how many were correct, per twentieth of confidence) per version,
and per candidate the bootstrap totals and Poisson-bootstrap replicate sums. :func:`merge`
adds two of them; integer addition is associative and commutative, so any partitioning, any
order and any number of workers give the same merged statistics, and
:func:`~fieldwise.compare._reduce.reduce_statistics` computes every figure from them alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise.compare._bootstrap import bootstrap_columns
from fieldwise.compare._outcomes import OK_OUTCOMES, OUTCOMES
from fieldwise.compare._poisson import document_keys, replicate_sums
from fieldwise.compare._spec import FieldSpec
from fieldwise.compare._stats import flip_units, transition_counts

__all__ = [
    "CALIBRATION_BINS",
    "Sufficient",
    "empty_statistics",
    "merge",
    "merge_all",
    "partition_statistics",
    "weight_classes",
]

#: Calibration bins: confidence in [k/20, (k+1)/20), the last one closed.
CALIBRATION_BINS = 20

Counts = tuple[int, ...]


@dataclass(frozen=True)
class Sufficient:
    """Integer statistics of some documents (see the module docstring). Plain values and
    numpy integer arrays: cheap to pickle to and from workers."""

    baseline: str
    candidates: tuple[str, ...]
    weights: tuple[float, ...]
    seed: int
    n_resamples: int
    partitions: int = 0
    #: (version, field) -> counts in :data:`OUTCOMES` order
    outcomes: Mapping[tuple[str, str], Counts] = field(default_factory=dict)
    #: field -> its weight
    field_weights: Mapping[str, float] = field(default_factory=dict)
    #: version -> (documents, documents with every cell ok)
    documents: Mapping[str, Counts] = field(default_factory=dict)
    #: (candidate, field) -> counts in :data:`TRANSITIONS` order
    transitions: Mapping[tuple[str, str], Counts] = field(default_factory=dict)
    #: version -> (cells with a confidence per bin, correct among them per bin)
    calibration: Mapping[str, Counts] = field(default_factory=dict)
    #: candidate -> bootstrap totals (columns of :func:`bootstrap_columns`)
    boot_totals: Mapping[str, npt.NDArray[np.int64]] = field(default_factory=dict)
    #: candidate -> (replicates x columns) Poisson-weighted sums
    boot_replicates: Mapping[str, npt.NDArray[np.int64]] = field(default_factory=dict)
    #: candidate -> documents the bootstrap counted
    boot_documents: Mapping[str, int] = field(default_factory=dict)


def weight_classes(specs: Mapping[str, FieldSpec]) -> tuple[float, ...]:
    """Every weight a cell may carry under ``specs`` (1.0 for fields without a spec)."""
    found = {1.0}
    for spec in specs.values():
        found.add(float(spec.weight))
        found.update(float(c.weight) for c in spec.columns)
    return tuple(sorted(found))


def _add(a: Mapping[object, Counts], b: Mapping[object, Counts]) -> dict[object, Counts]:
    out = dict(a)
    for key, counts in b.items():
        mine = out.get(key)
        out[key] = (
            counts if mine is None else tuple(x + y for x, y in zip(mine, counts, strict=True))
        )
    return out


def _add_arrays(
    a: Mapping[str, npt.NDArray[np.int64]], b: Mapping[str, npt.NDArray[np.int64]]
) -> dict[str, npt.NDArray[np.int64]]:
    out = dict(a)
    for key, arr in b.items():
        out[key] = arr if key not in out else out[key] + arr
    return out


def merge(a: Sufficient, b: Sufficient) -> Sufficient:
    """The statistics of the documents of ``a`` and ``b`` together (which must be disjoint and
    computed with the same versions, weights, seed and replicates)."""
    same = (a.baseline, a.candidates, a.weights, a.seed, a.n_resamples)
    if same != (b.baseline, b.candidates, b.weights, b.seed, b.n_resamples):
        raise ValueError("cannot merge statistics of different comparisons")
    return replace(
        a,
        partitions=a.partitions + b.partitions,
        outcomes=_add(a.outcomes, b.outcomes),  # type: ignore[arg-type]
        field_weights={**a.field_weights, **b.field_weights},
        documents=_add(a.documents, b.documents),  # type: ignore[arg-type]
        transitions=_add(a.transitions, b.transitions),  # type: ignore[arg-type]
        calibration=_add(a.calibration, b.calibration),  # type: ignore[arg-type]
        boot_totals=_add_arrays(a.boot_totals, b.boot_totals),
        boot_replicates=_add_arrays(a.boot_replicates, b.boot_replicates),
        boot_documents={
            k: a.boot_documents.get(k, 0) + b.boot_documents.get(k, 0)
            for k in sorted({*a.boot_documents, *b.boot_documents})
        },
    )


def merge_all(parts: Iterable[Sufficient], empty: Sufficient) -> Sufficient:
    """Merge every partition into ``empty`` (the statistics of no documents)."""
    total = empty
    for part in parts:
        total = merge(total, part)
    return total


def _outcome_counts(cells: pd.DataFrame) -> dict[tuple[str, str], Counts]:
    outcome = cells["outcome"].astype(pd.CategoricalDtype(list(OUTCOMES)))
    table = (
        pd.DataFrame({"version": cells["version"].astype(str), "field": cells["field"].astype(str)})
        .assign(outcome=outcome)
        .groupby(["version", "field", "outcome"], observed=False, sort=True)
        .size()
        .unstack("outcome", fill_value=0)
        .reindex(columns=list(OUTCOMES), fill_value=0)
    )
    return {
        (str(v), str(f)): tuple(int(x) for x in row)
        for (v, f), row in zip(table.index, table.to_numpy(), strict=True)
        if int(row.sum()) > 0
    }


def _documents(cells: pd.DataFrame) -> dict[str, Counts]:
    ok = cells["outcome"].isin(OK_OUTCOMES)
    per_doc = ok.groupby(
        [cells["version"].astype(str), cells["item"].astype(str)], observed=True, sort=True
    ).all()
    by_version = per_doc.groupby(level=0).agg(["size", "sum"])
    return {str(v): (int(r["size"]), int(r["sum"])) for v, r in by_version.iterrows()}


def _calibration(cells: pd.DataFrame) -> dict[str, Counts]:
    confidence = cells["confidence"].to_numpy(dtype=np.float64)
    has = ~np.isnan(confidence) & cells["outcome"].isin(["correct", "wrong", "spurious"]).to_numpy()
    out: dict[str, Counts] = {}
    versions = cells["version"].astype(str).to_numpy()
    correct = (cells["outcome"] == "correct").to_numpy()
    bins = np.clip(
        np.floor(np.clip(confidence, 0.0, 1.0) * CALIBRATION_BINS), 0, CALIBRATION_BINS - 1
    )
    for version in sorted(set(versions[has])):
        mask = has & (versions == version)
        which = bins[mask].astype(np.int64)
        n = np.bincount(which, minlength=CALIBRATION_BINS)
        k = np.bincount(which[correct[mask]], minlength=CALIBRATION_BINS)
        out[str(version)] = tuple(int(x) for x in (*n, *k))
    return out


def partition_statistics(
    cells: pd.DataFrame,
    *,
    baseline: str,
    candidates: Sequence[str],
    weights: tuple[float, ...],
    seed: int = 0,
    n_resamples: int = 1000,
) -> Sufficient:
    """The statistics of one partition's scored cells (:func:`~fieldwise.compare.score_cells`
    output holding whole documents)."""
    transitions: dict[tuple[str, str], Counts] = {}
    totals, replicates, boot_docs = {}, {}, {}
    for candidate in candidates:
        counts = transition_counts(flip_units(cells, baseline, candidate))
        for name, row in zip(counts.index, counts.to_numpy(), strict=True):
            transitions[(candidate, str(name))] = tuple(int(x) for x in row)
        items, _, values = bootstrap_columns(cells, baseline, candidate, weights)
        totals[candidate] = values.sum(axis=0)
        replicates[candidate] = replicate_sums(document_keys(items, seed), values, n_resamples)
        boot_docs[candidate] = len(items)
    field_weights = cells.groupby(cells["field"].astype(str), sort=True)["weight"].first().to_dict()
    return Sufficient(
        baseline=baseline,
        candidates=tuple(candidates),
        weights=weights,
        seed=seed,
        n_resamples=n_resamples,
        partitions=1,
        outcomes=_outcome_counts(cells),
        field_weights={str(k): float(v) for k, v in field_weights.items()},
        documents=_documents(cells),
        transitions=transitions,
        calibration=_calibration(cells),
        boot_totals=totals,
        boot_replicates=replicates,
        boot_documents=boot_docs,
    )


def empty_statistics(
    *,
    baseline: str,
    candidates: Sequence[str],
    weights: tuple[float, ...],
    seed: int,
    n_resamples: int,
) -> Sufficient:
    """The statistics of no documents: what merging starts from."""
    return Sufficient(baseline, tuple(candidates), weights, seed, n_resamples)
