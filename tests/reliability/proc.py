"""A process tree's memory and CPU read from ``/proc`` (Linux, like the other RSS tests):
the service started by ``fieldwise serve`` and its engine processes, its children."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cpu_seconds", "peak_rss", "tree", "tree_rss"]

_TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:  # gone meanwhile
        return None
    return raw[raw.rindex(")") + 2 :].split()  # the fields after the command name


def tree(pid: int) -> list[int]:
    """``pid`` and every process descending from it."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))) is not None:
            parents[int(entry.name)] = int(fields[1])
    found = [pid]
    for candidate in found:  # grows while it is walked: breadth first
        found.extend(child for child, parent in parents.items() if parent == candidate)
    return found


def _status(pid: int, key: str) -> int:
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0
    for line in lines:
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
    return 0


def tree_rss(pid: int) -> int:
    """The resident bytes of ``pid`` and its descendants now."""
    return sum(_status(p, "VmRSS") for p in tree(pid))


def peak_rss(pid: int) -> int:
    """The process's own peak resident memory so far (VmHWM), in bytes."""
    return _status(pid, "VmHWM")


def cpu_seconds(pid: int) -> float:
    """CPU time so far of ``pid`` and its descendants, the reaped ones included."""
    total = 0
    for p in tree(pid):
        if (fields := _stat(p)) is not None:
            total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    return total / _TICKS
