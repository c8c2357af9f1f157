"""Confidence charts per version: the reliability diagram and accuracy against automation.

Both are read from the confidence sweep (accepted predictions and their accuracy at each
threshold): a bin's counts are differences of the cumulative counts at its two edges.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

from fieldwise.report._chart import Series, figure, legend, num, swatch, text
from fieldwise.report._model import CalibrationRow, CurvePoint

__all__ = ["Bin", "coverage_chart", "reliability_bins", "reliability_chart"]

SIZE_W, SIZE_H = 420, 300
LEFT, RIGHT, TOP, BOTTOM = 46, 14, 12, 40
EDGES = tuple(i / 10 for i in range(10))


@dataclass(frozen=True)
class Bin:
    """Predictions with confidence in [low, high) (the last bin is closed) and their accuracy."""

    low: float
    high: float
    predictions: int
    accuracy: float


def reliability_bins(points: list[CurvePoint]) -> list[Bin]:
    """Ten confidence bins of one version from its cumulative sweep (empty bins dropped)."""
    at = {round(p.threshold, 2): p for p in points}
    if not all(round(e, 2) in at for e in EDGES):
        return []
    accepted = [at[round(e, 2)].accepted for e in EDGES] + [0]
    correct = [round(at[round(e, 2)].accepted * at[round(e, 2)].accuracy) for e in EDGES] + [0]
    bins = []
    for i, low in enumerate(EDGES):
        n = accepted[i] - accepted[i + 1]
        if n > 0:
            bins.append(Bin(low, low + 0.1, n, (correct[i] - correct[i + 1]) / n))
    return bins


def _x(v: float) -> float:
    return LEFT + v * (SIZE_W - LEFT - RIGHT)


def _y(v: float, low: float = 0.0) -> float:
    return SIZE_H - BOTTOM - (v - low) / (1 - low) * (SIZE_H - TOP - BOTTOM)


def _axes(x_label: str, y_label: str, low: float = 0.0) -> list[str]:
    """Grid, ticks and labels; the y axis runs from ``low`` to 1."""
    parts = []
    for i in range(5):
        v = i / 4
        y = low + (1 - low) * v
        parts.append(
            f'<line class="grid" x1="{num(_x(0))}" x2="{num(_x(1))}" y1="{num(_y(y, low))}" '
            f'y2="{num(_y(y, low))}"/>'
        )
        label = f"{y * 100:.1f}".rstrip("0").rstrip(".") + "%"
        parts.append(text(_x(0) - 6, _y(y, low) + 4, label, "end"))
        parts.append(
            text(
                _x(v), _y(0) + 15, f"{v:.2f}" if "confidence" in x_label else f"{i * 25}%", "middle"
            )
        )
    parts.append(text((_x(0) + _x(1)) / 2, SIZE_H - 6, x_label, "middle", "axis"))
    parts.append(
        f'<text class="axis" transform="translate(12 {num((_y(0) + _y(1)) / 2)}) rotate(-90)" '
        f'text-anchor="middle">{escape(y_label)}</text>'
    )
    return parts


def _line(series: Series, coords: list[tuple[float, float]], cls: str, low: float = 0.0) -> str:
    dash = f' stroke-dasharray="{series.dash}"' if series.dash else ""
    pts = " ".join(f"{num(_x(a))},{num(_y(b, low))}" for a, b in coords)
    return (
        f'<polyline class="{cls}" data-version="{escape(series.version)}" points="{pts}" '
        f'fill="none" stroke="{series.color}" stroke-width="2"{dash}/>'
    )


def reliability_chart(curves: tuple[CurvePoint, ...], series: list[Series]) -> Markup:
    """Accuracy of the predictions in each confidence bin, per version, against the diagonal
    of perfect calibration."""
    parts = _axes("confidence", "accuracy in bin")
    parts.append(
        f'<line class="diag" x1="{num(_x(0))}" y1="{num(_y(0))}" x2="{num(_x(1))}" '
        f'y2="{num(_y(1))}"/>'
    )
    for s in series:
        bins = reliability_bins([p for p in curves if p.version == s.version])
        coords = [((b.low + b.high) / 2, b.accuracy) for b in bins]
        if coords:
            parts.append(_line(s, coords, "reliability"))
        for b in bins:
            parts.append(
                f'<circle cx="{num(_x((b.low + b.high) / 2))}" cy="{num(_y(b.accuracy))}" r="3.5" '
                f'fill="{s.color}"><title>{escape(s.name)}: {b.low:.1f}–{b.high:.1f}, '
                f"{b.predictions} predictions, {b.accuracy * 100:.1f}% right</title></circle>"
            )
    diag = Markup(
        '<svg class="swatch" width="22" height="10" viewBox="0 0 22 10" aria-hidden="true">'
        '<line x1="1" y1="9" x2="21" y2="1" stroke="#9aa6b8" stroke-dasharray="2 2"/></svg>'
    )
    key = legend(
        [(swatch(s), s.name, s.version) for s in series] + [(diag, "perfect calibration", "")]
    )
    note = " predictions binned by confidence (0.1 wide)"
    return figure("reliability", "Reliability diagram", note, "".join(parts), SIZE_W, SIZE_H, key)


def coverage_chart(
    curves: tuple[CurvePoint, ...], calibration: tuple[CalibrationRow, ...], series: list[Series]
) -> Markup:
    """Accuracy of the accepted predictions against the share accepted (automation), one
    curve per version over the threshold sweep, each version's recommended threshold ringed."""
    recommended = {c.version: c for c in calibration if c.recommended_threshold is not None}
    drawn = {
        s.version: sorted(
            (p for p in curves if p.version == s.version and p.accepted > 0),
            key=lambda p: -p.threshold,
        )
        for s in series
    }
    lowest = [p.accuracy for pts in drawn.values() for p in pts]
    lowest += [c.precision_at_threshold for c in recommended.values()]
    # zoom the y axis onto the data (in steps of 10 points) rather than leave it empty
    low = min(0.9, max(0.0, float(int(min(lowest, default=0.0) * 10)) / 10))
    parts = _axes("share of predictions accepted (automation)", "accuracy of accepted", low)
    entries = []
    for n, s in enumerate(series):
        pts = drawn[s.version]
        if pts:
            parts.append(_line(s, [(p.coverage, p.accuracy) for p in pts], "coverage", low))
        entries.append((swatch(s), s.name, s.version))
        row = recommended.get(s.version)
        if row is not None and row.recommended_threshold is not None:
            # the calibration row holds the figures at the exact threshold, between sweep steps
            chosen = row.recommended_threshold
            cx, cy = _x(row.coverage_at_threshold), _y(row.precision_at_threshold, low)
            parts.append(
                f'<circle class="threshold" data-version="{escape(s.version)}" cx="{num(cx)}" '
                f'cy="{num(cy)}" r="6" fill="#fff" stroke="{s.color}" stroke-width="2.5">'
                f"<title>{escape(s.name)}: threshold {chosen:.2f} accepts "
                f"{row.coverage_at_threshold * 100:.1f}% at "
                f"{row.precision_at_threshold * 100:.1f}% accuracy</title></circle>"
            )
            # labels stacked one line per version so that nearby thresholds stay readable
            label_y = min(_y(low, low) - 6, cy + 18 + 14 * n)
            parts.append(text(cx - 8, label_y, f"{s.name}: t = {chosen:.2f}", "end", "label"))
    ring = Markup(
        '<svg class="swatch" width="22" height="10" viewBox="0 0 22 10" aria-hidden="true">'
        '<circle cx="11" cy="5" r="4" fill="#fff" stroke="#44505f" stroke-width="2"/></svg>'
    )
    key = legend([*entries, (ring, "recommended confidence threshold", "")])
    note = " each point is one confidence threshold (0 to 1 by 0.05)"
    return figure("coverage", "Accuracy vs automation", note, "".join(parts), SIZE_W, SIZE_H, key)
