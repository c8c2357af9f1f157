"""Small helpers for the report's hand-written inline SVG: scales, axes, legends.

Every chart is a ``<figure>`` with a title, an SVG that scales to its card (``viewBox``) and a
legend whose swatches are drawn exactly as the marks they name (same colour, same dashes).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from markupsafe import Markup, escape

__all__ = ["PALETTE", "Series", "figure", "legend", "num", "swatch", "text"]

#: baseline first (grey, dashed), then one colour per candidate
PALETTE = ("#7b8aa0", "#3558d6", "#d97706", "#0f9d8a", "#b83280", "#6b4fbb")


@dataclass(frozen=True)
class Series:
    """How one version is drawn: its name (shown), id (tooltip), colour and dash pattern."""

    name: str
    version: str
    color: str
    dash: str


def num(value: float) -> str:
    """A coordinate with at most two decimals (short, deterministic SVG)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def swatch(series: Series) -> Markup:
    """A 22 x 10 SVG line drawn as the series' lines are."""
    dash = f' stroke-dasharray="{series.dash}"' if series.dash else ""
    return Markup(
        '<svg class="swatch" width="22" height="10" viewBox="0 0 22 10" aria-hidden="true">'
        f'<line x1="1" y1="5" x2="21" y2="5" stroke="{series.color}" stroke-width="2.5"{dash}/>'
        f'<circle cx="11" cy="5" r="2.5" fill="{series.color}"/></svg>'
    )


def legend(entries: Iterable[tuple[Markup, str, str]]) -> Markup:
    """A legend: (swatch, label, tooltip) per entry."""
    parts = [
        Markup('<span title="{}">{}{}</span>').format(tip, mark, label)
        for mark, label, tip in entries
    ]
    return Markup('<div class="legend">') + Markup("").join(parts) + Markup("</div>")


def figure(
    chart_id: str, title: str, note: str, svg: str, width: int, height: int, key: Markup
) -> Markup:
    """A titled figure around ``svg`` (inner SVG markup, already escaped) and its legend."""
    return Markup(
        '<figure class="chart" id="{id}"><figcaption><strong>{title}</strong>'
        '<span class="muted">{note}</span></figcaption>'
        '<div class="scroll-x"><svg viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
        'aria-label="{title}">{svg}</svg></div>{key}</figure>'
    ).format(id=chart_id, title=title, note=note, w=width, h=height, svg=Markup(svg), key=key)


def text(x: float, y: float, label: str, anchor: str = "start", cls: str = "") -> str:
    """An SVG text element (escaped)."""
    klass = f' class="{cls}"' if cls else ""
    return f'<text x="{num(x)}" y="{num(y)}" text-anchor="{anchor}"{klass}>{escape(label)}</text>'
