"""The one JSON document of a comparison (docs/json.md): what ``compare --json``, ``gate --json``,
``evaluate --json`` and ``report.json`` share, key for key.

Its figures are read off a :class:`~fieldwise.compare.ComparisonResult` reduced from merged
per-partition statistics and nothing else, so the document is the same whether the run set was
scored in this process (one partition), over shards merged with ``runsets merge``, or on a Dask
cluster: only ``source`` says where and how it was computed. Rows come in a stable order:
versions as asked (baseline first, then the candidates), then fields by name. This module only
formats: every figure is computed in :mod:`fieldwise.compare`.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pandas as pd

from fieldwise.gate import EXIT_CODES, FailedRun, Verdict, worst

if TYPE_CHECKING:
    from fieldwise.compare import ComparisonResult

__all__ = ["SCHEMA", "DocumentSource", "comparison_document", "gate_document", "verdict_json"]

#: The document's version: 2 since the compare, gate, evaluate and report documents became one
#: (schema 1 had two compare shapes and no figures in ``gate``).
SCHEMA = 2

_FIELD_KEYS = (
    "version", "field", "type", "critical", "weight", "correct", "wrong", "missed", "spurious",
    "both_empty", "support", "n_cells", "field_accuracy", "field_accuracy_low",
    "field_accuracy_high", "strict_accuracy", "accuracy", "precision", "recall", "f1",
)  # fmt: skip
_OVERALL_KEYS = (
    "version", "support", "n_cells", "documents", "all_fields_correct_rate", "field_accuracy",
    "field_accuracy_low", "field_accuracy_high", "strict_accuracy", "accuracy", "precision",
    "recall", "f1",
)  # fmt: skip


@dataclass(frozen=True)
class DocumentSource:
    """What the figures were computed from and how: the run set, its ground-truth hash, how
    each version was asked for, the pairs without output, what ``--force`` let through, and
    the executor (``in-process`` or ``dask``, with its scheduler address when given)."""

    runset_id: str
    ground_truth_hash: str
    labels: Mapping[str, str] = field(default_factory=dict)
    failed_runs: Sequence[FailedRun] = ()
    forced: Sequence[str] = ()
    executor: str = "in-process"
    scheduler: str | None = None


def _value(value: Any) -> Any:
    """numpy/pandas scalars to Python; NaN and NA to None."""
    if hasattr(value, "item") and not isinstance(value, str | bytes):
        with contextlib.suppress(ValueError, AttributeError):
            value = value.item()
    if value is None or isinstance(value, str | bool | int | list | dict):
        return value
    if isinstance(value, float):
        return None if math.isnan(value) else value
    return None if pd.isna(value) else str(value)


def _rows(frame: pd.DataFrame, keys: Sequence[str]) -> list[dict[str, Any]]:
    present = [k for k in keys if k in frame.columns]
    return [{k: _value(row[k]) for k in present} for row in frame.to_dict(orient="records")]


def _ordered(frame: pd.DataFrame, by: str, order: Sequence[str], then: str) -> pd.DataFrame:
    """``frame`` sorted by the position of ``by`` in ``order`` (as asked, not by name), then
    by ``then``."""
    if frame.empty:
        return frame
    rank = {name: i for i, name in enumerate(order)}
    keys = [(rank.get(str(a), len(rank)), b) for a, b in zip(frame[by], frame[then], strict=True)]
    positions = sorted(range(len(keys)), key=keys.__getitem__)
    return frame.iloc[positions].reset_index(drop=True)


def comparison_document(reduced: ComparisonResult, source: DocumentSource) -> dict[str, Any]:
    """``compare --json``: every figure of the comparison (see the module docstring)."""
    versions = [reduced.baseline, *reduced.candidates]
    significance = _ordered(reduced.significance, "candidate", reduced.candidates, "field")
    return {
        "schema": SCHEMA,
        "source": {
            "runset_id": source.runset_id,
            "executor": source.executor,
            "scheduler": source.scheduler,
            "partitions": reduced.partitions,
        },
        "ground_truth_hash": source.ground_truth_hash,
        "baseline": reduced.baseline,
        "candidates": list(reduced.candidates),
        "versions": versions,
        "labels": {v: source.labels.get(v, "") for v in versions},
        "fields": _rows(_ordered(reduced.fields, "version", versions, "field"),
                        _FIELD_KEYS),
        "overall": _rows(_ordered(reduced.overall, "version", versions, "version"),
                         _OVERALL_KEYS),
        "tests": _rows(significance, list(significance.columns)),
        "row_tests": _rows(
            _ordered(reduced.row_tests, "candidate", reduced.candidates, "field"),
            list(reduced.row_tests.columns),
        ),
        "empty_columns": _rows(
            _ordered(reduced.empty_columns, "candidate", reduced.candidates, "field"),
            list(reduced.empty_columns.columns),
        ),
        "calibration": _rows(
            _ordered(reduced.calibration_bins, "version", versions, "low"),
            list(reduced.calibration_bins.columns),
        ),
        "bootstraps": {
            c: reduced.bootstraps[c].to_json() for c in reduced.candidates
            if c in reduced.bootstraps
        },
        "warnings": list(reduced.warnings),
        "failed_runs": [
            {"version": f.version, "item": f.item, "document": f.shown, "error": f.error}
            for f in sorted(source.failed_runs, key=lambda f: (versions.index(f.version)
                            if f.version in versions else len(versions), f.item))
        ],
        "forced": list(source.forced),
    }  # fmt: skip


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    """One candidate's verdict: status pass / fail / inconclusive and why."""
    return {
        "candidate": verdict.candidate,
        "baseline": verdict.baseline,
        "status": verdict.status,
        "passed": verdict.passed,
        "exit_code": verdict.exit_code,
        "reasons": list(verdict.reasons),
        "not_evaluated": list(verdict.not_evaluated),
        "policy_source": verdict.policy_source,
        "rules": [
            {
                "name": r.name,
                "rule": r.rule,
                "status": r.status,
                "field": r.field,
                "message": r.message,
                "observed": _value(r.observed),
                "threshold": _value(r.threshold),
            }
            for r in verdict.rules
        ],
    }


def gate_document(
    reduced: ComparisonResult, source: DocumentSource, verdicts: Sequence[Verdict]
) -> dict[str, Any]:
    """``gate --json``: the comparison document with every candidate's verdict, the worst
    status and its exit code."""
    status = worst([v.status for v in verdicts]) if verdicts else None
    return {
        **comparison_document(reduced, source),
        "status": status,
        "exit_code": EXIT_CODES[status] if status is not None else 0,
        "verdicts": [verdict_json(v) for v in verdicts],
    }
