"""A training run's steps: counted for its progress, and a point at each where it may be
told to stop."""

from __future__ import annotations

from collections.abc import Callable

from fieldwise.service.engines.training.params import TrainingCanceled

__all__ = ["Steps"]


class Steps:
    """Call once per finished step (reports progress); ``check()`` between steps raises
    :class:`TrainingCanceled` when the run was told to stop."""

    def __init__(
        self,
        total: int,
        progress: Callable[[int, int], None] | None,
        should_stop: Callable[[], bool] | None,
    ) -> None:
        self.total, self.done = total, 0
        self.progress, self.should_stop = progress, should_stop

    def check(self) -> None:
        if self.should_stop is not None and self.should_stop():
            raise TrainingCanceled("training canceled")

    def __call__(self) -> None:
        self.check()
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total)
