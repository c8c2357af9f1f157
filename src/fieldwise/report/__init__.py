"""fieldwise.report: ComparisonResult -> frozen ReportData -> HTML, Markdown, JUnit XML, JSON.

Typical use (one Jinja Environment per process, passed down)::

    env = make_environment()
    data = build_report(result, ReportContext(dataset="invoices", generated_at=now_iso), verdict)
    paths = write_report(data, default_report_dir(data), ["html", "md", "junit", "json"], env)
"""

from __future__ import annotations

from fieldwise.report._build import build_report
from fieldwise.report._document import (
    SCHEMA,
    DocumentSource,
    comparison_document,
    gate_document,
    verdict_json,
)
from fieldwise.report._env import make_environment
from fieldwise.report._html import render_html
from fieldwise.report._model import (
    OUTCOME_CODES,
    CalibrationRow,
    CandidateComparison,
    CurvePoint,
    Example,
    FieldAcross,
    FieldRow,
    FieldTest,
    ItemTable,
    ListRow,
    Metrics,
    Provenance,
    ReportContext,
    ReportData,
    Share,
    Suspect,
    VersionFigures,
)
from fieldwise.report._text import render_json, render_junit, render_markdown, report_from_json
from fieldwise.report._write import FORMATS, append_summary, default_report_dir, write_report

__all__ = [
    "FORMATS",
    "OUTCOME_CODES",
    "SCHEMA",
    "CalibrationRow",
    "CandidateComparison",
    "CurvePoint",
    "DocumentSource",
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
    "append_summary",
    "build_report",
    "comparison_document",
    "default_report_dir",
    "gate_document",
    "make_environment",
    "render_html",
    "render_json",
    "render_junit",
    "render_markdown",
    "report_from_json",
    "verdict_json",
    "write_report",
]
