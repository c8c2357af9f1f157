"""Per-field charts of one candidate against the baseline: the forest plot of Δ and the flips.

Both read the candidate's :class:`FieldTest` rows (McNemar flips, the Newcombe interval of the
difference in documents right, the MDE); they compute nothing, they only place marks.
"""

from __future__ import annotations

import math

from markupsafe import Markup, escape

from fieldwise.report._chart import Series, figure, legend, num, text
from fieldwise.report._model import FieldTest

__all__ = ["flips_chart", "forest_plot"]

WIDTH = 640
LABEL = 190  # room for "line_items[].unit_price" at 11 px
RIGHT = 24
ROW = 24
TOP, BOTTOM = 10, 34
BAD, GOOD, NEUTRAL, BAND = "#c62828", "#1b7f3b", "#44505f", "#dfe5ee"


def _limit(tests: tuple[FieldTest, ...]) -> float:
    reach = [abs(t.delta_low) for t in tests] + [abs(t.delta_high) for t in tests]
    reach += [t.mde for t in tests if t.mde is not None]
    top = max([*reach, 0.05])
    step = 0.05 if top <= 0.3 else 0.1
    return min(1.0, math.ceil(top / step - 1e-9) * step)


def _key(mark: str) -> Markup:
    return Markup(
        '<svg class="swatch" width="22" height="10" viewBox="0 0 22 10" aria-hidden="true">'
        f"{mark}</svg>"
    )


def forest_plot(tests: tuple[FieldTest, ...], candidate: Series, baseline: Series) -> Markup:
    """One row per field, regressions first: Δ (point), its interval (line) and ± the MDE
    (shaded band around zero: differences inside it cannot be told from chance)."""
    rows = sorted(tests, key=lambda t: (t.delta, t.field))
    height = TOP + BOTTOM + ROW * max(len(rows), 1)
    span = _limit(tests)
    plot_w = WIDTH - LABEL - RIGHT

    def x(v: float) -> float:
        return LABEL + (max(-span, min(span, v)) + span) / (2 * span) * plot_w

    parts: list[str] = []
    bottom = height - BOTTOM
    ticks = 4
    for i in range(-ticks, ticks + 1):
        v = span * i / ticks
        parts.append(
            f'<line class="grid" x1="{num(x(v))}" x2="{num(x(v))}" y1="{TOP}" y2="{bottom}"/>'
        )
        parts.append(text(x(v), bottom + 14, f"{v * 100:+.0f}" if i else "0", "middle"))
    parts.append(text(LABEL + plot_w / 2, bottom + 28, "Δ percentage points", "middle", "axis"))
    parts.append(f'<line class="zero" x1="{num(x(0))}" x2="{num(x(0))}" y1="{TOP}" y2="{bottom}"/>')
    for i, t in enumerate(rows):
        cy = TOP + ROW * i + ROW / 2
        color = NEUTRAL if not t.significant else (BAD if t.delta < 0 else GOOD)
        parts.append(text(LABEL - 8, cy + 4, t.field, "end", "field"))
        if t.mde is not None:
            parts.append(
                f'<rect class="mde" x="{num(x(-t.mde))}" y="{num(cy - 7)}" '
                f'width="{num(x(t.mde) - x(-t.mde))}" height="14" fill="{BAND}"/>'
            )
        parts.append(
            f'<line x1="{num(x(t.delta_low))}" x2="{num(x(t.delta_high))}" y1="{num(cy)}" '
            f'y2="{num(cy)}" stroke="{color}" stroke-width="2"/>'
        )
        tip = (
            f"{t.field}: Δ {t.delta * 100:+.1f} pp [{t.delta_low * 100:+.1f}, "
            f"{t.delta_high * 100:+.1f}], {t.regressed} regressed / {t.fixed} fixed"
            + (f", MDE ±{t.mde * 100:.1f} pp" if t.mde is not None else "")
        )
        parts.append(
            f'<circle class="mark" data-field="{escape(t.field)}" cx="{num(x(t.delta))}" '
            f'cy="{num(cy)}" r="5" fill="{color}"><title>{escape(tip)}</title></circle>'
        )
    key = legend(
        [
            (_key(f'<circle cx="11" cy="5" r="4" fill="{BAD}"/>'), "significant regression", ""),
            (_key(f'<circle cx="11" cy="5" r="4" fill="{GOOD}"/>'), "significant improvement", ""),
            (_key(f'<circle cx="11" cy="5" r="4" fill="{NEUTRAL}"/>'), "not significant", ""),
            (
                _key(f'<line x1="1" x2="21" y1="5" y2="5" stroke="{NEUTRAL}" stroke-width="2"/>'),
                "95% interval (Newcombe)",
                "",
            ),
            (_key(f'<rect x="1" y="0" width="20" height="10" fill="{BAND}"/>'), "± MDE", ""),
        ]
    )
    title = f"Δ field accuracy per field: {candidate.name} − {baseline.name}"
    note = " documents right, regressions first; the band is the smallest change detectable"
    return figure("forest", title, note, "".join(parts), WIDTH, height, key)


def flips_chart(tests: tuple[FieldTest, ...], candidate: Series, baseline: Series) -> Markup:
    """Per field, documents regressed (left, red) and fixed (right, green) by the candidate."""
    rows = sorted(tests, key=lambda t: (t.fixed - t.regressed, -t.regressed, t.field))
    height = TOP + BOTTOM + ROW * max(len(rows), 1)
    most = max([t.regressed for t in tests] + [t.fixed for t in tests] + [1])
    plot_w = WIDTH - LABEL - RIGHT
    mid = LABEL + plot_w / 2

    def w(n: int) -> float:
        return n / most * (plot_w / 2 - 24)

    parts = [
        f'<line class="zero" x1="{num(mid)}" x2="{num(mid)}" y1="{TOP}" y2="{height - BOTTOM}"/>'
    ]
    parts.append(text(mid - 6, height - BOTTOM + 16, "← regressed", "end", "axis"))
    parts.append(text(mid + 6, height - BOTTOM + 16, "fixed →", "start", "axis"))
    for i, t in enumerate(rows):
        y = TOP + ROW * i + 5
        cy = y + 7
        parts.append(text(LABEL - 8, cy + 4, t.field, "end", "field"))
        parts.append(
            f'<rect class="bar-regressed" x="{num(mid - w(t.regressed))}" y="{y}" '
            f'width="{num(w(t.regressed))}" height="14" fill="{BAD}"/>'
        )
        parts.append(
            f'<rect class="bar-fixed" x="{num(mid)}" y="{y}" width="{num(w(t.fixed))}" '
            f'height="14" fill="{GOOD}"/>'
        )
        if t.regressed:
            parts.append(text(mid - w(t.regressed) - 4, cy + 4, str(t.regressed), "end"))
        if t.fixed:
            parts.append(text(mid + w(t.fixed) + 4, cy + 4, str(t.fixed), "start"))
    key = legend(
        [
            (
                _key(f'<rect x="1" y="0" width="20" height="10" fill="{BAD}"/>'),
                f"regressed: right in {baseline.name}, wrong in {candidate.name}",
                "",
            ),
            (
                _key(f'<rect x="1" y="0" width="20" height="10" fill="{GOOD}"/>'),
                f"fixed: wrong in {baseline.name}, right in {candidate.name}",
                "",
            ),
        ]
    )
    title = f"Flips per field: {candidate.name} against {baseline.name}"
    return figure("flips", title, " documents", "".join(parts), WIDTH, height, key)
