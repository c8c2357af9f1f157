"""ComparisonResult + context (+ verdict) -> frozen :class:`ReportData` of plain values."""

from __future__ import annotations

from typing import Any

import pandas as pd

from fieldwise._errors import ReportError
from fieldwise.compare import ComparisonResult
from fieldwise.gate import Verdict, worst
from fieldwise.report import _versions
from fieldwise.report._items import format_value, units
from fieldwise.report._model import (
    CalibrationRow,
    CurvePoint,
    Example,
    FieldRow,
    Metrics,
    ReportContext,
    ReportData,
    Suspect,
)

__all__ = ["build_report"]


_float = _versions.opt


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [{str(k): v for k, v in row.items()} for row in frame.to_dict("records")]


def _metrics(row: dict[str, Any]) -> Metrics:
    return Metrics(
        accuracy=float(row["accuracy"]),
        precision=float(row["precision"]),
        recall=float(row["recall"]),
        f1=float(row["f1"]),
        n_cells=int(row["n_cells"]),
        correct=int(row["correct"]),
        wrong=int(row["wrong"]),
        missed=int(row["missed"]),
        spurious=int(row["spurious"]),
        field_accuracy=_float(row["field_accuracy"]),
        field_accuracy_low=_float(row["field_accuracy_low"]),
        field_accuracy_high=_float(row["field_accuracy_high"]),
        strict_accuracy=_float(row["strict_accuracy"]),
    )


_EMPTY = Metrics(1.0, 0.0, 0.0, 0.0, 0, 0, 0, 0, 0)


def _field_rows(
    result: ComparisonResult, verdict: Verdict | None, intervals: dict[str, tuple[float, float]]
) -> list[FieldRow]:
    by_version: dict[str, dict[str, dict[str, Any]]] = {}
    for row in _records(result.fields):
        by_version.setdefault(str(row["version"]), {})[str(row["field"])] = row
    base = by_version.get(result.baseline, {})
    cand = by_version.get(result.candidate, {}) if result.candidate is not None else {}
    sig = {str(r["field"]): r for r in _records(result.significance)}
    failed = {r.field for r in verdict.failed_rules} if verdict is not None else set()
    rows = []
    for name in sorted(base.keys() | cand.keys()):
        b, c, s = base.get(name), cand.get(name), sig.get(name, {})
        info = b or c or {}
        mb = _metrics(b) if b else _EMPTY
        mc = (_metrics(c) if c else _EMPTY) if result.candidate is not None else None
        delta = None if mc is None else mc.accuracy - mb.accuracy
        low, high = intervals.get(name, (None, None))
        status = "unchanged"
        if delta is not None and delta != 0:
            status = "regressed" if delta < 0 else "improved"
        rows.append(
            FieldRow(
                field=name,
                type=str(info.get("type", "string")),
                critical=bool(info.get("critical", False)),
                support=max(int(b["support"]) if b else 0, int(c["support"]) if c else 0),
                baseline=mb,
                candidate=mc,
                delta=delta,
                delta_low=low,
                delta_high=high,
                p_value=_float(s.get("p_value")),
                p_holm=_float(s.get("p_holm")),
                significant=bool(s.get("significant", False)),
                regressed=int(s.get("regressed", 0)),
                fixed=int(s.get("fixed", 0)),
                both_wrong=int(s.get("both_wrong", 0)),
                status=status,
                gate_failed=name in failed,
                warning=str(s.get("warning", "") or ""),
                mde=_float(s.get("mde")),
            )
        )
    # worst first: failing the gate, then by delta (most negative first), then name
    rows.sort(key=lambda r: (not r.gate_failed, r.delta if r.delta is not None else 0.0, r.field))
    return rows


def _sorted_examples(
    examples: tuple[Example, ...], order: dict[str, int], limit: int
) -> tuple[Example, ...]:
    ranked = sorted(examples, key=lambda e: (order.get(e.field, 0), e.field, e.document, e.item))
    return tuple(ranked[:limit])


def _warning(text: str) -> str:
    # compare names its own frame; the report's readers see the List fields section instead
    return text.replace("(see row_counts)", "(see List fields)")


def build_report(
    full: ComparisonResult,
    context: ReportContext,
    verdict: Verdict | None = None,
    *,
    verdicts: tuple[Verdict, ...] = (),
    max_examples: int = 200,
) -> ReportData:
    """Compute everything the renderers show, once. Deterministic for the same inputs.

    Every version appears side by side (``versions``, ``field_table``) and every candidate
    has its comparison and verdict (``comparisons``, ``verdicts``: default ``(verdict,)``);
    the detailed sections (fields, flips, item table) show the baseline against the
    candidate of ``verdict`` (default: the first). Per-field delta intervals are the
    result's own (:meth:`~fieldwise.compare.ComparisonResult.field_intervals`): this module
    computes no statistic.
    ``max_examples`` caps each of the regression and improvement lists (the item table keeps
    every unit). Raises :class:`ReportError` when the result has nothing to report.
    """
    if full.cells.empty:
        raise ReportError("the comparison has no cells: nothing to report")
    if not verdicts and verdict is not None:
        verdicts = (verdict,)
    if verdict is None and verdicts:
        verdict = verdicts[0]
    focus = verdict.candidate if verdict is not None else full.candidate
    result = full.for_candidate(focus) if focus is not None else full
    boot = result.bootstrap
    intervals = result.field_intervals()
    fields = _field_rows(result, verdict, intervals)
    order = {row.field: i for i, row in enumerate(fields)}
    found = units(result.cells, result.baseline, result.candidate, context.document_names)
    names = dict(context.document_names)
    overall = {str(r["version"]): r for r in _records(result.overall)}
    rate_b = float(overall[result.baseline]["all_fields_correct_rate"])
    rate_c = (
        float(overall[result.candidate]["all_fields_correct_rate"])
        if result.candidate is not None
        else None
    )
    return ReportData(
        dataset=context.dataset,
        generated_at=context.generated_at,
        evaluation_set_id=context.evaluation_set_id,
        ground_truth_hash=context.ground_truth_hash,
        processor_id=context.processor_id,
        baseline=result.baseline,
        baseline_id=context.baseline_id or result.baseline,
        baseline_label=context.baseline_label,
        candidate=result.candidate,
        candidate_id=context.candidate_id or result.candidate,
        candidate_label=context.candidate_label,
        documents=len(found.table.documents),
        accuracy_baseline=float(result.accuracy_baseline),
        accuracy_candidate=_float(result.accuracy_candidate),
        delta=_float(result.delta),
        delta_low=None if boot is None else _float(boot.low),
        delta_high=None if boot is None else _float(boot.high),
        interval_confidence=None if boot is None else float(boot.confidence),
        all_correct_baseline=rate_b,
        all_correct_candidate=rate_c,
        recommended_threshold=_float(result.recommended_threshold),
        warnings=tuple(_warning(str(w)) for w in result.warnings),
        verdict=verdict,
        fields=tuple(fields),
        regressions=_sorted_examples(found.regressions, order, max_examples),
        improvements=_sorted_examples(found.improvements, order, max_examples),
        total_regressions=len(found.regressions),
        total_improvements=len(found.improvements),
        curves=tuple(
            CurvePoint(
                version=str(r["version"]),
                threshold=float(r["threshold"]),
                accepted=int(r["accepted"]),
                coverage=float(r["coverage"]),
                accuracy=float(r["accuracy"]),
            )
            for r in _records(result.confidence)
        ),
        calibration=tuple(
            CalibrationRow(
                version=str(r["version"]),
                predictions=int(r["predictions"]),
                ece=float(r["ece"]),
                target_precision=float(r["target_precision"]),
                recommended_threshold=_float(r["recommended_threshold"]),
                precision_at_threshold=float(r["precision_at_threshold"]),
                coverage_at_threshold=float(r["coverage_at_threshold"]),
            )
            for r in _records(result.calibration)
        ),
        suspects=tuple(
            Suspect(
                field=str(r["field"]),
                item=str(r["item"]),
                document=names.get(str(r["item"]), str(r["item"])),
                row=int(r["row"]),
                expected=format_value(r["expected"]),
                predicted=format_value(r["predicted_baseline"]),
                confidence=float(r["confidence"]),
            )
            for r in _records(result.suspected_truth_errors)
        ),
        failed_runs=tuple(
            sorted(context.failed_runs, key=lambda f: (f.version, f.item, f.run_id or ""))
        ),
        items=found.table,
        status=worst([v.status for v in verdicts]) if verdicts else "",
        gate_figure=_versions.gate_figure(full, verdicts[0].figure if verdicts else ""),
        verdicts=tuple(verdicts),
        versions=_versions.versions(full, context),
        field_table=_versions.field_table(full),
        comparisons=_versions.comparisons(full, context, tuple(verdicts)),
        lists=_versions.list_rows(full),
        provenance=_versions.provenance(context),
    )
