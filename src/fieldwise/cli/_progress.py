"""Progress of the run step, on standard error: one display for ``run`` and ``evaluate``.

On a terminal it is a rich bar (pairs done of total, failed, cached, rate, time left) redrawn in
place. Anywhere else (a CI log, a file) redraws would be noise or nothing at all, so it prints a
plain line at the start, at most every ``every`` seconds while pairs finish, and at the end.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as Bar
from rich.text import Text

from fieldwise.runner import Progress


class _Rate(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:.1f} pairs/s")


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m {seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m"


class RunDisplay:
    """Shows :class:`~fieldwise.runner.Progress` reports; ``enabled=False`` shows nothing
    (``--quiet``), ``counts=False`` only the notes (``evaluate --json``). ``note`` prints a
    line above the bar (evaluate's stages)."""

    def __init__(
        self,
        *,
        enabled: bool,
        counts: bool = True,
        console: Console | None = None,
        every: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.enabled = enabled
        self.counts = enabled and counts
        self.console = console or Console(stderr=True)
        self.every = every
        self.clock = clock
        self._bar: Bar | None = None
        self._task: TaskID | None = None
        self._started: float | None = None
        self._first_done = 0
        self._last_line: float | None = None
        self._last: Progress | None = None
        self._shown: Progress | None = None

    def __enter__(self) -> RunDisplay:
        if self.counts and self.console.is_terminal:
            self._bar = Bar(
                TextColumn("running"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("failed {task.fields[failed]}  cached {task.fields[cached]}"),
                _Rate(),
                TimeRemainingColumn(),
                console=self.console,
                transient=True,
            )
            self._bar.__enter__()
            self._task = self._bar.add_task("run", total=None, failed=0, cached=0)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.__exit__(exc_type, exc, tb)
        elif self.counts and exc is None and self._last is not None and self._last != self._shown:
            self._line(self._last)

    def note(self, text: str) -> None:
        if self._bar is not None:
            self._bar.console.print(f"[dim]›[/dim] {text}")
        elif self.enabled:
            self.console.print(f"› {text}", markup=False, highlight=False, soft_wrap=True)

    def update(self, p: Progress) -> None:
        """The runner's progress callback."""
        if not self.counts:
            return
        now = self.clock()
        if self._started is None:
            self._started, self._first_done = now, p.done
        self._last = p
        if self._bar is not None and self._task is not None:
            self._bar.update(
                self._task,
                total=p.total,
                completed=p.done,
                failed=p.failed,
                cached=p.cached,
            )
            return
        if self._last_line is None or now - self._last_line >= self.every or p.done == p.total:
            self._line(p)
            self._last_line = now

    def _line(self, p: Progress) -> None:
        text = f"running: {p.done}/{p.total} pairs ({p.failed} failed, {p.cached} cached)"
        assert self._started is not None
        elapsed = self.clock() - self._started
        fresh = p.done - self._first_done
        if fresh > 0 and p.done < p.total and elapsed > 0:
            text += f", about {_duration((p.total - p.done) * elapsed / fresh)} left"
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)
        self._shown = p


__all__ = ["RunDisplay"]
