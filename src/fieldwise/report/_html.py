"""The self-contained HTML report: inline CSS, JS and SVG; the item table embedded once."""

from __future__ import annotations

import json

import jinja2
from markupsafe import Markup

from fieldwise.report._model import OUTCOME_CODES, ReportData
from fieldwise.report._svg import chart

__all__ = ["items_json", "render_html"]


def items_json(data: ReportData) -> str:
    """The item table as compact JSON, safe inside ``<script type="application/json">``."""
    table = data.items
    payload = {
        "outcomes": OUTCOME_CODES,
        "documents": table.documents,
        "fields": table.fields,
        "offsets": table.offsets,
        "field": table.field,
        "code": table.code,
        "values": table.values,
        "has_candidate": data.candidate is not None,
    }
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    # "<" as \u003c cannot close the script element or open a comment; JSON.parse reads it back
    return text.replace("<", "\\u003c")


def render_html(data: ReportData, env: jinja2.Environment) -> str:
    """Render ``data`` as one HTML document that needs no network to display."""
    roles = {data.baseline: "baseline"}
    if data.candidate is not None:
        roles[data.candidate] = "candidate"
    charts = (
        chart(
            "Accuracy above threshold", "accuracy", data.curves, roles, data.recommended_threshold
        ),
        chart(
            "Coverage above threshold", "coverage", data.curves, roles, data.recommended_threshold
        ),
    )
    template = env.get_template("report.html")
    return template.render(
        data=data,
        charts=charts,
        items_json=Markup(items_json(data)),
        fields_by_status={
            status: [f for f in data.fields if f.status == status]
            for status in ("regressed", "improved", "unchanged")
        },
    )
