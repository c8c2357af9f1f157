"""The every-version part of the report: figures side by side, one comparison per candidate,
list rows and the provenance. Formats what compare and the gate computed; computes nothing."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from fieldwise.compare import ComparisonResult
from fieldwise.gate import Verdict
from fieldwise.report._model import (
    CandidateComparison,
    FieldAcross,
    FieldTest,
    ListRow,
    Provenance,
    ReportContext,
    Share,
    VersionFigures,
)

__all__ = ["comparisons", "field_table", "gate_figure", "list_rows", "provenance", "versions"]


def opt(value: Any) -> float | None:
    """A plain float, or None for missing / NaN (JSON has no NaN)."""
    if value is None or value is pd.NA:
        return None
    number = float(value)
    return None if math.isnan(number) else number


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [{str(k): v for k, v in row.items()} for row in frame.to_dict("records")]


def _share(row: dict[str, Any] | None) -> Share:
    if row is None:
        return Share(None, None, None)
    return Share(
        opt(row["field_accuracy"]), opt(row["field_accuracy_low"]), opt(row["field_accuracy_high"])
    )


def versions(result: ComparisonResult, context: ReportContext) -> tuple[VersionFigures, ...]:
    """Overall figures of the baseline, then of every candidate."""
    overall = {str(r["version"]): r for r in _records(result.overall)}
    out = []
    for version in result.versions:
        r = overall[version]
        out.append(
            VersionFigures(
                version=version,
                label=context.version_labels.get(version, ""),
                role="baseline" if version == result.baseline else "candidate",
                config_hash=context.config_hashes.get(version, ""),
                field_accuracy=_share(r),
                strict_accuracy=opt(r["strict_accuracy"]),
                cell_accuracy=float(r["accuracy"]),
                precision=float(r["precision"]),
                recall=float(r["recall"]),
                f1=float(r["f1"]),
                support=int(r["support"]),
                documents=int(r["documents"]),
                run_seconds=round(float(context.run_seconds.get(version, 0.0)), 3),
            )
        )
    return tuple(out)


def field_table(result: ComparisonResult) -> tuple[FieldAcross, ...]:
    """Per field (sorted), field accuracy with its interval in every version."""
    rows: dict[str, dict[str, dict[str, Any]]] = {}
    for r in _records(result.fields):
        rows.setdefault(str(r["field"]), {})[str(r["version"])] = r
    out = []
    for name in sorted(rows):
        by_version = rows[name]
        info = next(iter(by_version.values()))
        out.append(
            FieldAcross(
                field=name,
                type=str(info["type"]),
                weight=float(info["weight"]),
                critical=bool(info["critical"]),
                support=max(int(r["support"]) for r in by_version.values()),
                accuracy=tuple(_share(by_version.get(v)) for v in result.versions),
                strict_accuracy=tuple(
                    opt(by_version[v]["strict_accuracy"]) if v in by_version else None
                    for v in result.versions
                ),
            )
        )
    return tuple(out)


def _tests(table: pd.DataFrame, gains: dict[str, float | None]) -> tuple[FieldTest, ...]:
    return tuple(
        FieldTest(
            field=str(r["field"]),
            regressed=int(r["regressed"]),
            fixed=int(r["fixed"]),
            both_wrong=int(r["both_wrong"]),
            documents=int(r["n"]),
            delta=float(r["delta"]),
            delta_low=float(r["delta_low"]),
            delta_high=float(r["delta_high"]),
            p_value=float(r["p_value"]),
            p_holm=float(r["p_holm"]),
            significant=bool(r["significant"]),
            mde=opt(r["mde"]),
            required_n=None if opt(r["required_n"]) is None else int(r["required_n"]),
            accuracy_delta=gains.get(str(r["field"])),
        )
        for r in _records(table.sort_values("field"))
    )


def comparisons(
    result: ComparisonResult, context: ReportContext, verdicts: tuple[Verdict, ...]
) -> tuple[CandidateComparison, ...]:
    """One entry per candidate, in candidate order."""
    by_candidate = {v.candidate: v for v in verdicts}
    overall = {str(r["version"]): r for r in _records(result.overall)}
    base = opt(overall[result.baseline]["field_accuracy"])
    out = []
    for candidate in result.candidates:
        verdict = by_candidate.get(candidate)
        boot = result.bootstraps.get(candidate)
        mine = opt(overall[candidate]["field_accuracy"])
        sig = result.significance.loc[result.significance["candidate"] == candidate]
        accuracy = result.fields.set_index(["version", "field"])["field_accuracy"]
        gains = {
            str(f): _difference(accuracy.get((candidate, f)), accuracy.get((result.baseline, f)))
            for f in sig["field"]
        }
        empty = result.empty_columns.loc[result.empty_columns["candidate"] == candidate]
        out.append(
            CandidateComparison(
                candidate=candidate,
                label=context.version_labels.get(candidate, ""),
                status=verdict.status if verdict is not None else "",
                reasons=verdict.reasons if verdict is not None else (),
                field_accuracy_delta=None if base is None or mine is None else mine - base,
                delta=None if boot is None else opt(boot.delta),
                delta_low=None if boot is None else opt(boot.low),
                delta_high=None if boot is None else opt(boot.high),
                tests=_tests(sig, gains),
                empty_columns=tuple(sorted(str(f) for f in empty["field"])),
            )
        )
    return tuple(out)


def _difference(after: Any, before: Any) -> float | None:
    a, b = opt(after), opt(before)
    return None if a is None or b is None else a - b


def list_rows(result: ComparisonResult) -> tuple[ListRow, ...]:
    """Row recall, cardinality error and truncation prefix per (list field, version)."""
    order = {v: i for i, v in enumerate(result.versions)}
    rows = sorted(
        _records(result.lists), key=lambda r: (str(r["field"]), order.get(str(r["version"]), 0))
    )
    return tuple(
        ListRow(
            version=str(r["version"]),
            field=str(r["field"]),
            expected_rows=int(r["expected_rows"]),
            predicted_rows=int(r["predicted_rows"]),
            matched_rows=int(r["matched_rows"]),
            row_recall=opt(r["row_recall"]),
            cardinality_error=float(r["cardinality_error"]),
            truncation_prefix=opt(r["truncation_prefix"]),
            short_documents=int(r["short_documents"]),
        )
        for r in rows
    )


def gate_figure(result: ComparisonResult, figure: str) -> str:
    """Which figure the gate uses, and the field weights that differ from 1."""
    weights = (
        result.fields.loc[result.fields["weight"] != 1.0, ["field", "weight"]]
        .drop_duplicates()
        .sort_values("field")
    )
    text = figure or "field accuracy = correct / expected"
    if len(weights):
        shown = ", ".join(
            f"{f} ×{w:g}" for f, w in zip(weights["field"], weights["weight"], strict=True)
        )
        text += f"; weights: {shown}"
    else:
        text += "; every field weighs 1"
    return text


def provenance(context: ReportContext) -> Provenance:
    return Provenance(
        ground_truth_hash=context.ground_truth_hash,
        spec_hash=context.spec_hash,
        policy_hash=context.policy_hash,
        fieldwise_version=context.fieldwise_version,
        forced=tuple(context.forced),
    )
