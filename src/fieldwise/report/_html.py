"""The self-contained HTML report: inline CSS, JS and SVG; the item table embedded once."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import jinja2
from markupsafe import Markup

from fieldwise.report._chart import PALETTE, Series
from fieldwise.report._forest import flips_chart, forest_plot
from fieldwise.report._model import OUTCOME_CODES, ReportData
from fieldwise.report._names import version_names
from fieldwise.report._subset import HTML_UNITS, TOP_K, bounded, flips
from fieldwise.report._svg import coverage_chart, reliability_chart
from fieldwise.report._thumbs import document_links, thumbnails

__all__ = ["items_json", "render_html"]


def items_json(
    data: ReportData,
    links: Mapping[str, str] | None = None,
    thumbs: Mapping[str, str] | None = None,
) -> str:
    """The item table as compact JSON, safe inside ``<script type="application/json">``:
    every unit up to :data:`HTML_UNITS`, past that the top disagreements of each field;
    ``links`` maps document names to their relative URLs, ``thumbs`` to their thumbnails (each
    embedded once, however many rows show it)."""
    table = bounded(data.items)
    # rows right in both versions show no values in the browser: leave them out of the file
    agree = flips(table) == 0
    values = [v for v in table.values if not agree[v[0]]]
    links = links or {}
    payload = {
        "links": [links.get(name, "") for name in table.documents],
        "thumbs": dict(thumbs or {}),
        "total_units": len(data.items.code),
        "outcomes": OUTCOME_CODES,
        "documents": table.documents,
        "fields": table.fields,
        "offsets": table.offsets,
        "field": table.field,
        "code": table.code,
        "values": values,
        "has_candidate": data.candidate is not None,
    }
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    # "<" as \u003c cannot close the script element or open a comment; JSON.parse reads it back
    return text.replace("<", "\\u003c")


def _series(data: ReportData, names: dict[str, str]) -> list[Series]:
    order = [v.version for v in data.versions] or [data.baseline] + (
        [data.candidate] if data.candidate is not None else []
    )
    out = []
    for i, version in enumerate(order):
        color = PALETTE[min(i, len(PALETTE) - 1)]
        out.append(Series(names.get(version, version), version, color, "5 3" if i == 0 else ""))
    return out


def _charts(data: ReportData, series: list[Series]) -> dict[str, Markup]:
    charts = {
        "reliability": reliability_chart(data.curves, series),
        "coverage": coverage_chart(data.curves, data.calibration, series),
    }
    focus = [c for c in data.comparisons if c.candidate == data.candidate]
    if focus and focus[0].tests:
        by_version = {s.version: s for s in series}
        cand, base = by_version[focus[0].candidate], by_version[data.baseline]
        charts["forest"] = forest_plot(focus[0].tests, cand, base)
        charts["flips"] = flips_chart(focus[0].tests, cand, base)
    return charts


def render_html(
    data: ReportData,
    env: jinja2.Environment,
    documents_root: Path | str | None = None,
    report_dir: Path | str | None = None,
) -> str:
    """Render ``data`` as one HTML document that needs no network to display.

    With ``documents_root`` (the folder the document names are relative to), documents are
    linked, and the regression and improvement lists show a small first-page thumbnail
    (embedded, so it shows wherever the file is opened). Links are relative to ``report_dir``
    (the folder the HTML is written to; default: the current directory), never absolute
    paths of this machine, so a report copied with its documents (a CI artifact) still
    opens them."""
    names = version_names(data)
    links: dict[str, str] = {}
    thumbs: dict[str, str] = {}
    if documents_root is not None:
        root = Path(documents_root)
        links = document_links(root, data.items.documents, Path(report_dir or "."))
        shown = [e.document for e in data.regressions + data.improvements]
        thumbs = thumbnails(root, [d for d in shown if d in links])
    series = _series(data, names)
    template = env.get_template("report.html")
    return template.render(
        data=data,
        names=names,
        base_name=names[data.baseline],
        cand_name=names.get(data.candidate or "", ""),
        series=series,
        charts=_charts(data, series),
        items_json=Markup(items_json(data, links, thumbs)),
        links=links,
        thumbs=thumbs,
        items_truncated=len(data.items.code) > HTML_UNITS,
        top_k=TOP_K,
        fields_by_status={
            status: [f for f in data.fields if f.status == status]
            for status in ("regressed", "improved", "unchanged")
        },
    )
