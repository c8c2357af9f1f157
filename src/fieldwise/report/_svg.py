"""Geometry of the inline SVG confidence charts (the template only draws what is here)."""

from __future__ import annotations

from dataclasses import dataclass

from fieldwise.report._model import CurvePoint

__all__ = ["Chart", "Line", "chart"]

WIDTH, HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 12, 30


@dataclass(frozen=True)
class Line:
    version: str
    role: str
    points: str


@dataclass(frozen=True)
class Chart:
    title: str
    width: int
    height: int
    lines: tuple[Line, ...]
    x_ticks: tuple[tuple[float, str], ...]
    y_ticks: tuple[tuple[float, str], ...]
    marker_x: float | None
    marker_label: str
    plot: tuple[float, float, float, float]


def _x(t: float) -> float:
    return round(LEFT + t * (WIDTH - LEFT - RIGHT), 2)


def _y(v: float) -> float:
    return round(HEIGHT - BOTTOM - v * (HEIGHT - TOP - BOTTOM), 2)


def chart(
    title: str,
    metric: str,
    curves: tuple[CurvePoint, ...],
    roles: dict[str, str],
    threshold: float | None,
) -> Chart:
    """A line per version of ``metric`` ("accuracy" or "coverage") against the threshold, with
    a marker at the recommended ``threshold``; ``roles`` maps version to "baseline"/"candidate"."""
    lines = []
    for version, role in roles.items():
        pts = [p for p in curves if p.version == version]
        if pts:
            coords = " ".join(f"{_x(p.threshold)},{_y(getattr(p, metric))}" for p in pts)
            lines.append(Line(version, role, coords))
    ticks = tuple((_x(t / 4), f"{t / 4:.2f}") for t in range(5))
    y_ticks = tuple((_y(t / 4), f"{t * 25}%") for t in range(5))
    return Chart(
        title=title,
        width=WIDTH,
        height=HEIGHT,
        lines=tuple(lines),
        x_ticks=ticks,
        y_ticks=y_ticks,
        marker_x=None if threshold is None else _x(threshold),
        marker_label="" if threshold is None else f"{threshold:.2f}",
        plot=(LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM),
    )
