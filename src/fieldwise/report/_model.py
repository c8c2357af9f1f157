"""The frozen report model: plain values only (str, int, float, bool, None, tuples), sorted.

Built once by :func:`~fieldwise.report.build_report`; every renderer reads only this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from fieldwise.gate import FailedRun, Verdict

__all__ = [
    "OUTCOME_CODES",
    "CalibrationRow",
    "CandidateComparison",
    "CurvePoint",
    "Example",
    "FieldAcross",
    "FieldRow",
    "FieldTest",
    "ItemTable",
    "ListRow",
    "Metrics",
    "Provenance",
    "ReportContext",
    "ReportData",
    "Share",
    "Suspect",
    "VersionFigures",
]

#: Outcome names by code in :class:`ItemTable`; code 5 means "no value on either side".
OUTCOME_CODES = ("correct", "wrong", "missed", "spurious", "both_empty", "absent")


def _no_names() -> Mapping[str, str]:
    return MappingProxyType({})


def _no_seconds() -> Mapping[str, float]:
    return MappingProxyType({})


@dataclass(frozen=True)
class ReportContext:
    """What the comparison itself does not know: where it came from and when.

    ``generated_at`` is passed in (ISO 8601), never read from the clock, so reports are
    reproducible. ``baseline_id`` / ``candidate_id`` default to the comparison's version names;
    ``document_names`` maps item ids to the names shown (default: the item id).
    """

    dataset: str
    generated_at: str
    evaluation_set_id: str = ""
    ground_truth_hash: str = ""
    processor_id: str = ""
    baseline_id: str | None = None
    baseline_label: str = ""
    candidate_id: str | None = None
    candidate_label: str = ""
    failed_runs: tuple[FailedRun, ...] = ()
    document_names: Mapping[str, str] = field(default_factory=_no_names)
    #: label (how it was asked for) and config hash of every version, by version id
    version_labels: Mapping[str, str] = field(default_factory=_no_names)
    config_hashes: Mapping[str, str] = field(default_factory=_no_names)
    spec_hash: str = ""
    policy_hash: str = ""
    fieldwise_version: str = ""
    #: differences in ground truth or spec that ``--force`` overrode (the report says so)
    forced: tuple[str, ...] = ()
    #: seconds the service spent on each version's runs (their summed latencies), by version id
    run_seconds: Mapping[str, float] = field(default_factory=_no_seconds)


@dataclass(frozen=True)
class Metrics:
    """One version's figures for one field: ``accuracy`` is cell accuracy ((correct +
    both_empty) / cells), ``field_accuracy`` correct / expected with its Wilson interval
    (None without expected values), ``strict_accuracy`` correct / (all but both_empty)."""

    accuracy: float
    precision: float
    recall: float
    f1: float
    n_cells: int
    correct: int
    wrong: int
    missed: int
    spurious: int
    field_accuracy: float | None = None
    field_accuracy_low: float | None = None
    field_accuracy_high: float | None = None
    strict_accuracy: float | None = None


@dataclass(frozen=True)
class Share:
    """A share with its Wilson interval (all None when nothing was measured)."""

    value: float | None
    low: float | None
    high: float | None


@dataclass(frozen=True)
class VersionFigures:
    """One version's overall figures (field accuracy weighted by field weight)."""

    version: str
    label: str
    role: str
    config_hash: str
    field_accuracy: Share
    strict_accuracy: float | None
    cell_accuracy: float
    precision: float
    recall: float
    f1: float
    support: int
    documents: int
    #: seconds the service spent on this version's runs (summed latencies; 0 when unknown)
    run_seconds: float = 0.0


@dataclass(frozen=True)
class FieldAcross:
    """One field's field accuracy in every version (in :attr:`ReportData.versions` order)."""

    field: str
    type: str
    weight: float
    critical: bool
    support: int
    accuracy: tuple[Share, ...]
    strict_accuracy: tuple[float | None, ...]


@dataclass(frozen=True)
class FieldTest:
    """One field of one candidate against the baseline: flips, McNemar p (raw and Holm across
    every candidate and field), the delta of documents right with its Newcombe interval, the
    minimum detectable effect (Connor 1987) at the observed discordance, and
    ``accuracy_delta``: the candidate's field accuracy minus the baseline's."""

    field: str
    regressed: int
    fixed: int
    both_wrong: int
    documents: int
    delta: float
    delta_low: float
    delta_high: float
    p_value: float
    p_holm: float
    significant: bool
    mde: float | None
    required_n: int | None
    accuracy_delta: float | None = None


@dataclass(frozen=True)
class ListRow:
    """One list field (line items) in one version: how many rows it found."""

    version: str
    field: str
    expected_rows: int
    predicted_rows: int
    matched_rows: int
    row_recall: float | None
    cardinality_error: float
    truncation_prefix: float | None
    short_documents: int


@dataclass(frozen=True)
class CandidateComparison:
    """One candidate against the baseline: its verdict, overall deltas and field tests."""

    candidate: str
    label: str
    status: str
    reasons: tuple[str, ...]
    field_accuracy_delta: float | None
    delta: float | None
    delta_low: float | None
    delta_high: float | None
    tests: tuple[FieldTest, ...]
    empty_columns: tuple[str, ...]


@dataclass(frozen=True)
class Provenance:
    """The comparability contract of the figures: what they were computed against."""

    ground_truth_hash: str
    spec_hash: str
    policy_hash: str
    fieldwise_version: str
    forced: tuple[str, ...]


@dataclass(frozen=True)
class FieldRow:
    """One field: both versions' metrics, the accuracy delta with its bootstrap interval
    (documents resampled), McNemar p (raw and Holm-adjusted) and the flips.

    ``status`` is "regressed", "improved" or "unchanged" (by the accuracy delta);
    ``gate_failed`` when a gate rule about this field failed.
    """

    field: str
    type: str
    critical: bool
    support: int
    baseline: Metrics
    candidate: Metrics | None
    delta: float | None
    delta_low: float | None
    delta_high: float | None
    p_value: float | None
    p_holm: float | None
    significant: bool
    regressed: int
    fixed: int
    both_wrong: int
    status: str
    gate_failed: bool
    warning: str
    mde: float | None = None


@dataclass(frozen=True)
class Example:
    """A (document, field) that flipped: expected vs baseline vs candidate values."""

    field: str
    item: str
    document: str
    expected: str
    baseline: str
    candidate: str
    baseline_outcome: str
    candidate_outcome: str


@dataclass(frozen=True)
class CurvePoint:
    """Accuracy and coverage of the predictions accepted at ``threshold`` for one version."""

    version: str
    threshold: float
    accepted: int
    coverage: float
    accuracy: float


@dataclass(frozen=True)
class CalibrationRow:
    """Calibration of one version and the confidence_threshold that reaches the target."""

    version: str
    predictions: int
    ece: float
    target_precision: float
    recommended_threshold: float | None
    precision_at_threshold: float
    coverage_at_threshold: float


@dataclass(frozen=True)
class Suspect:
    """A value both versions agree on, confidently, against the ground truth."""

    field: str
    item: str
    document: str
    row: int
    expected: str
    predicted: str
    confidence: float


@dataclass(frozen=True)
class ItemTable:
    """Every (document, field) unit, columnar and compact for the report's item browser.

    Rows are sorted by document then field; document ``d`` owns rows
    ``offsets[d]:offsets[d + 1]``. ``code`` is ``baseline * 6 + candidate`` with outcome codes
    from :data:`OUTCOME_CODES` (the worst cell of the unit; line-item columns have several).
    ``values`` holds ``(row, expected, baseline, candidate)`` for every row (the HTML embeds
    only those not right in both versions; ``items.parquet`` all of them).
    """

    documents: tuple[str, ...]
    fields: tuple[str, ...]
    offsets: tuple[int, ...]
    field: tuple[int, ...]
    code: tuple[int, ...]
    values: tuple[tuple[int, str, str, str], ...]


@dataclass(frozen=True)
class ReportData:
    """Everything a report shows, computed once from a ComparisonResult and its context."""

    dataset: str
    generated_at: str
    evaluation_set_id: str
    ground_truth_hash: str
    processor_id: str
    baseline: str
    baseline_id: str
    baseline_label: str
    candidate: str | None
    candidate_id: str | None
    candidate_label: str
    documents: int
    accuracy_baseline: float
    accuracy_candidate: float | None
    delta: float | None
    delta_low: float | None
    delta_high: float | None
    interval_confidence: float | None
    all_correct_baseline: float
    all_correct_candidate: float | None
    recommended_threshold: float | None
    warnings: tuple[str, ...]
    verdict: Verdict | None
    fields: tuple[FieldRow, ...]
    regressions: tuple[Example, ...]
    improvements: tuple[Example, ...]
    total_regressions: int
    total_improvements: int
    curves: tuple[CurvePoint, ...]
    calibration: tuple[CalibrationRow, ...]
    suspects: tuple[Suspect, ...]
    failed_runs: tuple[FailedRun, ...]
    items: ItemTable
    #: ``pass``, ``fail`` or ``inconclusive`` over every candidate's verdict ("" without gate)
    status: str = ""
    gate_figure: str = ""
    verdicts: tuple[Verdict, ...] = ()
    versions: tuple[VersionFigures, ...] = ()
    field_table: tuple[FieldAcross, ...] = ()
    comparisons: tuple[CandidateComparison, ...] = ()
    lists: tuple[ListRow, ...] = ()
    provenance: Provenance | None = None
