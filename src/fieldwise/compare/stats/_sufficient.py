"""Mergeable sufficient statistics: what one partition of scored cells contributes.

A partition is a set of whole documents (every cell of every version of a document lies in
the same partition). From its scored cells, :func:`partition_statistics` keeps only integer
counts: outcome counts per (version, field), documents and all-correct documents per version,
flip counts (both_right, regressed, fixed, both_wrong) per (candidate, field), calibration bins
(cells with a confidence, and how many were correct, per twentieth of confidence) per version,
and per candidate the bootstrap totals and Poisson-bootstrap replicate sums.
:func:`merge_statistics` adds two of them; integer addition is associative and commutative, so
any partitioning, any order and any number of workers give the same merged statistics, and
:func:`~fieldwise.compare.stats._reduce.reduce_statistics` computes every figure from them alone.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise.compare._codes import CodedCells, outcome_in
from fieldwise.compare._spec import FieldSpec
from fieldwise.compare.score._outcomes import OUTCOMES
from fieldwise.compare.stats._bootstrap import bootstrap_counts
from fieldwise.compare.stats._poisson import document_keys, replicate_sums
from fieldwise.compare.stats._units import TRANSITIONS, pair_units, transition_codes, unit_ok

__all__ = [
    "CALIBRATION_BINS",
    "Sufficient",
    "empty_statistics",
    "merge_statistics",
    "partition_statistics",
    "weight_classes",
]

#: Calibration bins: confidence in [k/20, (k+1)/20), the last one closed.
CALIBRATION_BINS = 20

Counts = tuple[int, ...]
K = TypeVar("K")
V = TypeVar("V")


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
    #: (version, field) -> the sum of the scores of cells that are not both_empty (partial
    #: credit: fuzzy text keeps its similarity); the one float sum, for ``mean_score``
    score_sums: Mapping[tuple[str, str], float] = field(default_factory=dict)
    #: version -> (documents, documents with every cell ok)
    documents: Mapping[str, Counts] = field(default_factory=dict)
    #: (candidate, field) -> counts in :data:`TRANSITIONS` order
    transitions: Mapping[tuple[str, str], Counts] = field(default_factory=dict)
    #: version -> (cells with a confidence per bin, correct among them per bin)
    calibration: Mapping[str, Counts] = field(default_factory=dict)
    #: candidate -> bootstrap totals (columns of :func:`bootstrap_counts`)
    boot_totals: Mapping[str, npt.NDArray[np.int64]] = field(default_factory=dict)
    #: candidate -> (replicates x columns) Poisson-weighted sums
    boot_replicates: Mapping[str, npt.NDArray[np.int64]] = field(default_factory=dict)
    #: candidate -> documents the bootstrap counted
    boot_documents: Mapping[str, int] = field(default_factory=dict)
    #: (candidate, field) -> (documents where the baseline has a value, those where the
    #: candidate has one too, documents the baseline has with an expected value): all-null
    #: columns (:attr:`~fieldwise.compare.ComparisonResult.empty_columns`)
    kept_values: Mapping[tuple[str, str], Counts] = field(default_factory=dict)
    #: (candidate, list field) -> (documents of both, expected rows, rows matched by the
    #: baseline, by the candidate, complete lists lost, gained): the row tests
    #: (:func:`~fieldwise.compare.score._lists.row_tests`)
    list_rows: Mapping[tuple[str, str], Counts] = field(default_factory=dict)


def weight_classes(specs: Mapping[str, FieldSpec]) -> tuple[float, ...]:
    """Every weight a cell may carry under ``specs`` (1.0 for fields without a spec)."""
    found = {1.0}
    for spec in specs.values():
        found.add(float(spec.weight))
        found.update(float(c.weight) for c in spec.columns)
    return tuple(sorted(found))


def _add(a: Mapping[K, V], b: Mapping[K, V], plus: Callable[[V, V], V]) -> dict[K, V]:
    """``a`` and ``b`` merged, ``plus`` adding the values of a key both have."""
    out = dict(a)
    for key, value in b.items():
        out[key] = value if key not in out else plus(out[key], value)
    return out


def _add_counts(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def merge_statistics(a: Sufficient, b: Sufficient) -> Sufficient:
    """The statistics of the documents of ``a`` and ``b`` together (which must be disjoint and
    computed with the same versions, weights, seed and replicates)."""
    same = (a.baseline, a.candidates, a.weights, a.seed, a.n_resamples)
    if same != (b.baseline, b.candidates, b.weights, b.seed, b.n_resamples):
        raise ValueError("cannot merge statistics of different comparisons")
    return replace(
        a,
        partitions=a.partitions + b.partitions,
        outcomes=_add(a.outcomes, b.outcomes, _add_counts),
        field_weights={**a.field_weights, **b.field_weights},
        score_sums=_add(a.score_sums, b.score_sums, operator.add),
        documents=_add(a.documents, b.documents, _add_counts),
        transitions=_add(a.transitions, b.transitions, _add_counts),
        calibration=_add(a.calibration, b.calibration, _add_counts),
        boot_totals=_add(a.boot_totals, b.boot_totals, operator.add),
        boot_replicates=_add(a.boot_replicates, b.boot_replicates, operator.add),
        boot_documents=_add(a.boot_documents, b.boot_documents, operator.add),
        kept_values=_add(a.kept_values, b.kept_values, _add_counts),
        list_rows=_add(a.list_rows, b.list_rows, _add_counts),
    )


def _outcome_counts(c: CodedCells) -> dict[tuple[str, str], Counts]:
    n_f, n_o = len(c.fields), len(OUTCOMES)
    table = np.zeros((len(c.versions) * n_f, n_o), dtype=np.int64)
    for b in c.blocks:
        if isinstance(b.field, int):  # a column: one row of the table
            table[b.version * n_f + b.field] += b.counts
            continue
        valid = b.outcome >= 0
        key = b.field[valid] * n_o + b.outcome[valid]
        table[b.version * n_f : (b.version + 1) * n_f] += np.bincount(
            key, minlength=n_f * n_o
        ).reshape(n_f, n_o)
    return {
        (str(c.versions[row // n_f]), str(c.fields[row % n_f])): tuple(int(x) for x in counts)
        for row, counts in enumerate(table)
        if int(counts.sum()) > 0
    }


def _score_sums(c: CodedCells) -> dict[tuple[str, str], float]:
    # zeros in place of both_empty scores: the sums of the other cells, added in cell order
    # (bincount adds in order; np.sum would add pairwise, to other last bits)
    n_f = len(c.fields)
    sums, present = np.zeros(len(c.versions) * n_f), np.zeros(len(c.versions) * n_f, dtype=bool)
    both_empty, correct = OUTCOMES.index("both_empty"), OUTCOMES.index("correct")
    for b in c.blocks:
        rows = slice(b.version * n_f, (b.version + 1) * n_f)
        if isinstance(b.field, int) and b.score is None:  # 1.0 where correct: a count
            sums[rows][b.field] += float(b.counts[correct])
            present[rows][b.field] |= len(b.outcome) > 0
            continue
        score = b.ok.astype(np.float64) if b.score is None else b.score
        scored = np.where(b.outcome != both_empty, score, 0.0)
        field = np.broadcast_to(b.field, scored.shape)  # (a column: one field)
        sums[rows] += np.bincount(field, weights=scored, minlength=n_f)
        present[rows] |= np.bincount(field, minlength=n_f) > 0
    return {
        (str(c.versions[g // n_f]), str(c.fields[g % n_f])): float(sums[g])
        for g in np.flatnonzero(present).tolist()
    }


def _present(c: CodedCells) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Per (version, item): whether the document has a cell, and whether one is not ok."""
    present = np.zeros((len(c.versions), len(c.items)), dtype=bool)
    bad = np.zeros_like(present)
    for b in c.blocks:
        if b.column and len(b.item) == len(c.items):  # each document, in order
            present[b.version] = True
            bad[b.version] |= ~b.ok
            continue
        present[b.version][b.item] = True
        bad[b.version][b.item[~b.ok]] = True
    return present, bad


def _documents(
    c: CodedCells, present: npt.NDArray[np.bool_], bad: npt.NDArray[np.bool_]
) -> dict[str, Counts]:
    return {
        str(v): (int(present[code].sum()), int((present[code] & ~bad[code]).sum()))
        for code, v in enumerate(c.versions)
        if present[code].any()
    }


def _calibration(c: CodedCells) -> dict[str, Counts]:
    correct = OUTCOMES.index("correct")
    found: dict[int, npt.NDArray[np.int64]] = {}
    for b in c.blocks:
        if b.confidence is None:
            continue
        has = ~np.isnan(b.confidence) & outcome_in(b.outcome, ("correct", "wrong", "spurious"))
        if not has.any():
            continue
        confidence = np.clip(b.confidence[has], 0.0, 1.0)
        which = np.clip(np.floor(confidence * CALIBRATION_BINS), 0, CALIBRATION_BINS - 1)
        which = which.astype(np.int64)
        n = np.bincount(which, minlength=CALIBRATION_BINS)
        right = np.bincount(which[b.outcome[has] == correct], minlength=CALIBRATION_BINS)
        row = np.concatenate([n, right])
        found[b.version] = found[b.version] + row if b.version in found else row
    return {str(c.versions[v]): tuple(int(x) for x in row) for v, row in sorted(found.items())}


def _transitions(c: CodedCells, baseline: str, candidate: str) -> dict[str, Counts]:
    """Flip counts per field of the pair's units
    (:func:`~fieldwise.compare.stats._units.pair_units`); every field of the cells gets a row
    (zeros when the pair has no unit of it)."""
    rows, code_b, code_c = pair_units(c, baseline, candidate)
    transition = transition_codes(unit_ok(code_b), unit_ok(code_c))
    n_t = len(TRANSITIONS)
    field = rows % max(len(c.fields), 1)
    table = np.bincount(field * n_t + transition, minlength=len(c.fields) * n_t)
    return {
        str(name): tuple(int(x) for x in row)
        for name, row in zip(c.fields, table.reshape(-1, n_t), strict=True)
    }


def _kept_values(c: CodedCells, baseline: str, candidate: str) -> dict[str, Counts]:
    """Per field: (field, document) units where the baseline has a value, where the candidate
    has one too, and baseline units with an expected value (see :attr:`Sufficient.kept_values`)."""
    n_i, n_f = max(1, len(c.items)), len(c.fields)

    def units(name: str, outcomes: tuple[str, ...]) -> npt.NDArray[np.bool_]:
        out = np.zeros(n_f * n_i, dtype=bool)
        for b in c.of_version(c.code_of(name)):
            mine = outcome_in(b.outcome, outcomes)
            out[(b.field * n_i + b.item)[mine]] = True
        return out

    value, expected = ("correct", "wrong", "spurious"), ("correct", "wrong", "missed")
    had = units(baseline, value)
    kept = had & units(candidate, value)
    per_field = [u.reshape(n_f, n_i).sum(axis=1) for u in (had, kept, units(baseline, expected))]
    return {
        str(name): (int(per_field[0][f]), int(per_field[1][f]), int(per_field[2][f]))
        for f, name in enumerate(c.fields)
    }


def _list_rows(row_counts: pd.DataFrame, baseline: str, candidate: str) -> dict[str, Counts]:
    """Per list field: the sums :func:`~fieldwise.compare.score._lists.row_tests` reads (see
    :attr:`Sufficient.list_rows`) over the documents both versions have a row count for."""
    if row_counts.empty:
        return {}
    frame = row_counts.assign(
        version=row_counts["version"].astype(str),
        field=row_counts["field"].astype(str),
        item=row_counts["item"].astype(str),
        ok=row_counts["matched_rows"] >= row_counts["expected_rows"],
    )
    columns = ["field", "item", "expected_rows", "matched_rows", "ok"]
    base = frame.loc[frame["version"] == baseline, columns]
    cand = frame.loc[frame["version"] == candidate, columns]
    both = base.merge(cand, on=["field", "item"], suffixes=("_b", "_c"))
    out: dict[str, Counts] = {}
    for name, group in both.groupby("field", sort=True):
        ok_b, ok_c = group["ok_b"].to_numpy(dtype=bool), group["ok_c"].to_numpy(dtype=bool)
        out[str(name)] = (
            len(group),
            int(group["expected_rows_b"].sum()),
            int(group["matched_rows_b"].sum()),
            int(group["matched_rows_c"].sum()),
            int((ok_b & ~ok_c).sum()),
            int((~ok_b & ok_c).sum()),
        )
    return out


def _field_weights(c: CodedCells) -> dict[str, float]:
    # the weight of the first cell of each field (blocks are in version order)
    out: dict[str, float] = {}
    for b in c.blocks:
        if isinstance(b.field, int):
            out.setdefault(str(c.fields[b.field]), float(b.weight))
            continue
        first = np.full(len(c.fields), -1, dtype=np.int64)
        first[b.field[::-1]] = np.arange(len(b.field) - 1, -1, -1)  # earliest written last
        weight = np.asarray(b.weight)
        for f, i in enumerate(first.tolist()):
            if i >= 0:
                out.setdefault(str(c.fields[f]), float(weight[i]))
    return out


def _bootstrap(
    c: CodedCells,
    present: npt.NDArray[np.bool_],
    pair: tuple[int, int],
    weights: tuple[float, ...],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[Any] | pd.Index[Any]]:
    """The :func:`bootstrap_counts` of the documents of the pair (baseline and candidate
    codes) and those documents' ids."""
    used = np.zeros(len(c.items), dtype=bool)
    for code in pair:
        if code >= 0:
            used |= present[code]
    remap = np.cumsum(used) - 1
    n = int(used.sum())
    values = np.zeros((n, 4 * len(weights)), dtype=np.int64)
    for b in c.blocks:
        if b.version in pair:
            values += bootstrap_counts(
                remap[b.item],
                n,
                is_candidate=b.version == pair[1],
                ok=b.ok,
                cell_weight=b.weight,
                weights=weights,
            )
    return values, c.items[used]


def partition_statistics(
    cells: pd.DataFrame | CodedCells,
    *,
    baseline: str,
    candidates: Sequence[str],
    weights: tuple[float, ...],
    seed: int = 0,
    n_resamples: int = 1000,
    row_counts: pd.DataFrame | None = None,
) -> Sufficient:
    """The statistics of one partition's scored cells holding whole documents
    (:func:`~fieldwise.compare.score_cells` output, or its :class:`CodedCells`, with its
    row-count table when there are list fields)."""
    c = cells if isinstance(cells, CodedCells) else CodedCells.of(cells)
    present, bad = _present(c)
    transitions: dict[tuple[str, str], Counts] = {}
    kept_values: dict[tuple[str, str], Counts] = {}
    list_rows: dict[tuple[str, str], Counts] = {}
    totals, replicates, boot_docs = {}, {}, {}
    for candidate in candidates:
        for name, row in _transitions(c, baseline, candidate).items():
            transitions[(candidate, name)] = row
        for name, row in _kept_values(c, baseline, candidate).items():
            kept_values[(candidate, name)] = row
        rows = row_counts if row_counts is not None else pd.DataFrame()
        for name, row in _list_rows(rows, baseline, candidate).items():
            list_rows[(candidate, name)] = row
        pair = (c.code_of(baseline), c.code_of(candidate))
        values, items = _bootstrap(c, present, pair, weights)
        totals[candidate] = values.sum(axis=0)
        replicates[candidate] = replicate_sums(document_keys(items, seed), values, n_resamples)
        boot_docs[candidate] = len(items)
    return Sufficient(
        baseline=baseline,
        candidates=tuple(candidates),
        weights=weights,
        seed=seed,
        n_resamples=n_resamples,
        partitions=1,
        outcomes=_outcome_counts(c),
        field_weights=_field_weights(c),
        score_sums=_score_sums(c),
        documents=_documents(c, present, bad),
        transitions=transitions,
        calibration=_calibration(c),
        boot_totals=totals,
        boot_replicates=replicates,
        boot_documents=boot_docs,
        kept_values=kept_values,
        list_rows=list_rows,
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
