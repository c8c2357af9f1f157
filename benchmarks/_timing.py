"""Shared by the service benchmarks (parse, run, sync): honest timing and one row per figure.

- ``interleave`` runs the contenders in turn, repeat after repeat (A B A B …), so a burst of
  load on this shared machine hits both sides alike; each figure is the median, with min and
  max beside it.
- ``cold`` times a whole process (interpreter start and imports included) and reads its own
  peak RSS from ``wait4``.
- ``exponent`` is the slope of log(time) over log(size) through the sizes measured: 1.0 is
  linear; above 1.1 is flagged as worse than linear.
- ``emit`` prints a row: one JSON object per line with ``--json``, a human line without.
"""

from __future__ import annotations

import json
import math
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "cold",
    "emit",
    "exponent",
    "interleave",
    "load_average",
    "peak_rss_mb",
    "python",
    "spread",
    "vm_hwm_mb",
]


def interleave(contenders: dict[str, Callable[[], Any]], repeat: int) -> dict[str, list[float]]:
    """Seconds of each contender per repeat, run in turn."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeat):
        for name, fn in contenders.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return times


def spread(values: Sequence[float]) -> tuple[float, float, float]:
    """(min, median, max)."""
    return min(values), statistics.median(values), max(values)


def exponent(sizes: Sequence[float], seconds: Sequence[float]) -> float:
    """Least-squares slope of log(seconds) on log(size)."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(max(t, 1e-9)) for t in seconds]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    num = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    den = sum((x - mx) ** 2 for x in xs)
    return num / den


def vm_hwm_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return None


def cold(
    command: Sequence[str], env: dict[str, str] | None = None, cwd: Path | None = None
) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one whole process running ``command``.

    The peak is the process's own high-water mark (``VmHWM``), sampled every 10 ms until it
    exits: ``wait4``'s ``ru_maxrss`` would count the parent's memory copied at fork.
    """
    start = time.perf_counter()
    proc = subprocess.Popen(
        list(command), env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    peak = 0.0
    while proc.poll() is None:
        peak = max(peak, vm_hwm_mb(proc.pid) or 0.0)
        time.sleep(0.01)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}): {err[-2000:]}")
    if proc.stderr:
        proc.stderr.close()
    return elapsed, peak


def peak_rss_mb() -> float:
    """This process's peak RSS so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load_average() -> float:
    """The 1-minute load average (the machine is shared: every row says what it ran beside)."""
    return os.getloadavg()[0]


def emit(row: dict[str, Any], as_json: bool) -> None:
    """Print one row; ``ratio`` is fieldwise over the alternative in the row's unit."""
    if as_json:
        print(json.dumps(row), flush=True)
        return
    extra = ", ".join(
        f"{k} {v}"
        for k, v in row.items()
        if k not in {"row", "fieldwise", "alternative", "unit", "ratio", "goal", "met"}
    )
    print(
        f"{row['row']}: fieldwise {row['fieldwise']} vs {row['alternative']} {row['unit']}, "
        f"ratio {row['ratio']} (goal {row['goal']}: {'met' if row['met'] else 'NOT met'}); "
        f"{extra}",
        flush=True,
    )


def python() -> list[str]:
    """The interpreter running this script, unbuffered."""
    return [sys.executable, "-u"]
