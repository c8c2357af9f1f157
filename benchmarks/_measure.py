"""Shared measuring for every benchmark script: honest timing and one row per figure.

Honest figures, by construction:

- **interleaved** repeats: the sides take turns (A B A B ...), so a burst of load from the
  other tenants of this shared machine hits both, and every figure is given as
  min / median / max; the ratio is of the medians;
- **cold** figures are whole processes started the way a user starts them (a fresh interpreter
  that imports, reads its input and works), timed from outside by ``wait4`` (exact to the
  exit), with the child's own peak RSS (``VmHWM``, sampled while it runs);
- **growth**: the slope of log(time) over log(size) through sizes 10x and 100x apart (1.0 is
  linear; for two sizes, ``log(t2 / t1) / log(n2 / n1)``);
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
import sys
import tempfile
import threading
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
    "growth",
    "interleaved",
    "load_average",
    "own_peak_rss_mb",
    "python",
    "timed",
    "vm_hwm_mb",
]


@dataclass(frozen=True)
class Figure:
    """Repeated measurements of one side: seconds per run and the peak RSS (MB) seen."""

    times: tuple[float, ...]
    peak_rss_mb: float = math.nan

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    def min_med_max(self, digits: int = 3) -> list[float]:
        """``[min, median, max]`` seconds, rounded: the spread a JSON row carries."""
        return [round(t, digits) for t in (min(self.times), self.median, max(self.times))]

    def spread(self, digits: int = 3) -> str:
        """``median (min-max, n=k)`` in seconds."""
        return (
            f"{self.median:.{digits}f}s (min {min(self.times):.{digits}f}, "
            f"max {max(self.times):.{digits}f}, n={len(self.times)})"
        )


def vm_hwm_mb(pid: int | str = "self") -> float | None:
    """Peak RSS of a live process in MB (``VmHWM``), or None when it cannot be read."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return None


def own_peak_rss_mb() -> float:
    """Peak RSS of this process's own memory so far, in MB: ``VmHWM``, which starts afresh at
    ``exec`` (``ru_maxrss`` does not: a child forked from a big benchmark process inherits the
    parent's peak), else ``ru_maxrss``."""
    own = vm_hwm_mb()
    return own if own is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cold_run(
    argv: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> tuple[float, float, str]:
    """Run ``argv`` as a fresh process: (wall seconds, its peak RSS in MB, its stdout).

    The time is taken when ``wait4`` returns, so it is exact to the exit. The peak is the
    child's own ``VmHWM`` sampled every 10 ms by a thread (``ru_maxrss`` would count the
    parent's memory copied at fork); a child gone before the first sample falls back to
    ``ru_maxrss``, exact when this process is small. A child that may grow in its last 10 ms
    should report :func:`own_peak_rss_mb` itself.

    Raises ``RuntimeError`` with the child's stderr when it fails, so a broken side never
    passes for a fast one."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            list(argv),
            stdout=out,
            stderr=err,
            cwd=cwd,
            env=None if env is None else {**os.environ, **env},
        )
        peak = [math.nan]
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.01):
                seen = vm_hwm_mb(proc.pid)
                if seen is not None:
                    peak[0] = seen if math.isnan(peak[0]) else max(peak[0], seen)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        # wait4 gives this child's own rusage (RUSAGE_CHILDREN would mix every child so far)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        done.set()
        sampler.join()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            message = err.read().decode(errors="replace")[-2000:]
            raise RuntimeError(f"{' '.join(argv)} failed ({proc.returncode}): {message}")
        rss = usage.ru_maxrss / 1024 if math.isnan(peak[0]) else peak[0]
        return elapsed, rss, out.read().decode()


def interleaved(
    sides: Mapping[str, Callable[[], float | tuple[float, float]]], repeats: int
) -> dict[str, Figure]:
    """Call each side in turn ``repeats`` times. A side returns its seconds, or (seconds, peak
    RSS MB); wrap a plain function with :func:`timed`."""
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


def exponent(sizes: Sequence[float], seconds: Sequence[float]) -> float:
    """How time grows with the work: the least-squares slope of log(seconds) on log(size);
    1.0 is linear, above 1 worse than linear."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(max(t, 1e-9)) for t in seconds]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    num = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    return num / sum((x - mx) ** 2 for x in xs)


def growth(
    work: Callable[[int], Any],
    sizes: Sequence[int],
    repeats: int = 3,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """:func:`exponent` of ``work(n)`` over ``sizes``, each size timed as the median of
    ``repeats`` calls: one call of the smallest size takes a few tens of milliseconds, where
    one hiccup of a shared machine moves the slope by a tenth."""
    seconds = []
    for n in sizes:
        times = []
        for _ in range(repeats):
            start = clock()
            work(n)
            times.append(clock() - start)
        seconds.append(statistics.median(times))
    return exponent(sizes, seconds)


def load_average() -> float:
    """The 1-minute load average (the machine is shared: every row says what it ran beside)."""
    return os.getloadavg()[0]


def python() -> list[str]:
    """The interpreter running this script, unbuffered."""
    return [sys.executable, "-u"]


_SHOWN = {"row", "fieldwise", "alternative", "unit", "ratio", "goal", "met"}


def emit(row: Mapping[str, Any], line: str | None = None, *, as_json: bool) -> None:
    """Print one figure: ``row`` as one JSON line with ``--json``, else the human ``line``
    (by default the row's figures, then its other keys)."""
    if as_json:
        print(json.dumps({k: _plain(v) for k, v in row.items()}, allow_nan=False), flush=True)
        return
    if line is None:
        extra = ", ".join(f"{k} {v}" for k, v in row.items() if k not in _SHOWN)
        line = (
            f"{row['row']}: fieldwise {row['fieldwise']} vs {row['alternative']} {row['unit']}, "
            f"ratio {row['ratio']} (goal {row['goal']}: {'met' if row['met'] else 'NOT met'}); "
            f"{extra}"
        )
    print(line, flush=True)


def _plain(value: Any) -> Any:
    """JSON-safe: NaN and infinities become null, numpy scalars plain numbers."""
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
