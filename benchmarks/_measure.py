"""Shared measuring for the comparison benchmarks (compare.py, report.py, cli_help.py).

Honest figures, by construction:

- **interleaved** repeats: the sides take turns (A B A B ...), so a burst of load from the
  other tenants of this shared machine hits both, and every figure is given as
  min / median / max; the ratio is of the medians;
- **cold** figures are whole processes started the way a user starts them (a fresh interpreter
  that imports, reads its input and works), timed from outside, with the child's peak RSS read
  from ``wait4``;
- **growth**: the exponent ``log(t2 / t1) / log(n2 / n1)`` between sizes 10x and 100x apart
  (1.0 is linear);
- **one row per figure**: a human line, or with ``--json`` one JSON object per line in the
  shape ``benchmarks/run_all.py`` reads: ``row, fieldwise, alternative, unit, ratio, goal, met,
  exponent, peak_rss_mb`` (and free-form extras).
"""

from __future__ import annotations

import json
import math
import os
import resource
import statistics
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "Figure",
    "cold_run",
    "emit",
    "exponent",
    "interleaved",
    "load_average",
    "own_peak_rss_mb",
    "timed",
]


@dataclass(frozen=True)
class Figure:
    """Repeated measurements of one side: seconds per run and the peak RSS (MB) seen."""

    times: tuple[float, ...]
    peak_rss_mb: float = math.nan

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    def spread(self, digits: int = 3) -> str:
        """``median (min-max, n=k)`` in seconds."""
        return (
            f"{self.median:.{digits}f}s (min {min(self.times):.{digits}f}, "
            f"max {max(self.times):.{digits}f}, n={len(self.times)})"
        )


def own_peak_rss_mb() -> float:
    """Peak RSS of this process's own memory so far, in MB: ``VmHWM``, which starts afresh at
    ``exec`` (``ru_maxrss`` does not: a child forked from a big benchmark process inherits the
    parent's peak), else ``ru_maxrss``."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cold_run(
    argv: Sequence[str], *, env: Mapping[str, str] | None = None
) -> tuple[float, float, str]:
    """Run ``argv`` as a fresh process: (wall seconds, its peak RSS in MB, its stdout).

    The RSS is ``ru_maxrss`` of the child, which Linux carries over from the forking parent:
    exact when this process is small; a big parent should have its children report
    :func:`own_peak_rss_mb` themselves.

    Raises ``RuntimeError`` with the child's stderr when it fails, so a broken side never
    passes for a fast one."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        list(argv),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=None if env is None else {**os.environ, **env},
    )
    # wait4 gives this child's own rusage (RUSAGE_CHILDREN would mix every child so far);
    # read the pipes only after it exits: the children print a few lines at most
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    out, err = proc.communicate()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({proc.returncode}): {err.decode()[-2000:]}")
    return elapsed, usage.ru_maxrss / 1024, out.decode()


def interleaved(
    sides: Mapping[str, Callable[[], float | tuple[float, float]]], repeats: int
) -> dict[str, Figure]:
    """Call each side in turn ``repeats`` times. A side returns its seconds, or (seconds, peak
    RSS MB); a side that returns nothing useful is timed from outside."""
    times: dict[str, list[float]] = {name: [] for name in sides}
    rss: dict[str, float] = dict.fromkeys(sides, math.nan)
    for _ in range(repeats):
        for name, run in sides.items():
            got = run()
            seconds, peak = got if isinstance(got, tuple) else (got, math.nan)
            times[name].append(seconds)
            if not math.isnan(peak):
                rss[name] = peak if math.isnan(rss[name]) else max(rss[name], peak)
    return {name: Figure(tuple(times[name]), rss[name]) for name in sides}


def timed(fn: Callable[[], Any]) -> Callable[[], float]:
    """A side for :func:`interleaved` that runs ``fn`` in this process."""

    def run() -> float:
        start = time.perf_counter()
        fn()
        return time.perf_counter() - start

    return run


def exponent(size_small: float, time_small: float, size_large: float, time_large: float) -> float:
    """How time grows with the work: 1.0 is linear, above 1 worse than linear."""
    return math.log(time_large / time_small) / math.log(size_large / size_small)


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def emit(row: Mapping[str, Any], line: str, *, as_json: bool) -> None:
    """Print one figure: ``row`` as one JSON line with ``--json``, else the human ``line``."""
    if as_json:
        print(json.dumps({k: _plain(v) for k, v in row.items()}, allow_nan=False), flush=True)
    else:
        print(line, flush=True)


def _plain(value: Any) -> Any:
    """JSON-safe: NaN and infinities become null, numpy scalars plain numbers."""
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
