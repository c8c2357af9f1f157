"""Benchmark ``fieldwise --help`` as a user pays it: a whole process, started cold.

Beside it the floor a click CLI over httpx and rich can reach: a fresh interpreter that imports
click, httpx and rich and exits. Sides take turns; figures are median (min, max). Goal: <= 2x.
The work does not grow with any input, so there is no growth exponent.

Run: .venv/bin/python benchmarks/cli_help.py [--json] [--repeats N] [--quick]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import cold_run, emit, interleaved

GOAL = 2.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    parser.add_argument("--repeats", type=int, default=15, help="interleaved repeats per side")
    parser.add_argument("--quick", action="store_true", help="5 repeats")
    args = parser.parse_args()
    fieldwise = str(Path(sys.executable).parent / "fieldwise")

    def side(argv: list[str]) -> tuple[float, float]:
        seconds, rss, _ = cold_run(argv)
        return seconds, rss

    figures = interleaved(
        {
            "fieldwise": lambda: side([fieldwise, "--help"]),
            "imports": lambda: side([sys.executable, "-c", "import click, httpx, rich"]),
        },
        5 if args.quick else args.repeats,
    )
    fw, alt = figures["fieldwise"], figures["imports"]
    ratio = fw.median / alt.median
    emit(
        {
            "row": "fieldwise --help, whole process",
            "fieldwise": round(fw.median, 4),
            "alternative": round(alt.median, 4),
            "alternative_name": "importing click + httpx + rich",
            "unit": "s",
            "ratio": round(ratio, 3),
            "goal": f"<= {GOAL}x",
            "met": ratio <= GOAL,
            "exponent": None,
            "peak_rss_mb": round(fw.peak_rss_mb),
            "alternative_peak_rss_mb": round(alt.peak_rss_mb),
            "fieldwise_min_max": [round(min(fw.times), 4), round(max(fw.times), 4)],
            "alternative_min_max": [round(min(alt.times), 4), round(max(alt.times), 4)],
        },
        f"fieldwise --help: {fw.spread()} vs importing click + httpx + rich {alt.spread()}: "
        f"{ratio:.2f}x (goal <= {GOAL}x: {'met' if ratio <= GOAL else 'NOT met'}); "
        f"peak RSS {fw.peak_rss_mb:.0f} MB vs {alt.peak_rss_mb:.0f} MB",
        as_json=args.json,
    )


if __name__ == "__main__":
    main()
