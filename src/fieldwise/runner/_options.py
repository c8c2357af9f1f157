"""How a run set is run: one value, shared by :func:`~fieldwise.runner.run_versions` and
:func:`~fieldwise.runner.arun_versions` (and by anything that builds a run to hand over)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from fieldwise._errors import RunnerError
from fieldwise.runner._cache import DEFAULT_CACHE_PATH
from fieldwise.runner._execute import PairPolicy
from fieldwise.runner._model import Progress
from fieldwise.runner._runset_store import DEFAULT_RESULTS_DIR
from fieldwise.runner._webhook_wait import WebhookListen

__all__ = ["WAIT_MODES", "ProgressCallback", "RunOptions"]

ProgressCallback = Callable[[Progress], None]

#: How the runner learns that a run finished.
WAIT_MODES = ("poll", "webhooks")


@dataclass(frozen=True)
class RunOptions:
    """What to run and how (see :func:`~fieldwise.runner.run_versions` for each option).

    Either ``eval_set`` and ``processor_id`` (with ``versions``) or ``resume``: that is checked
    when the run starts, so a partial value can be built up with :meth:`with_changes`."""

    eval_set: str = ""
    processor_id: str = ""
    versions: tuple[str, ...] = ()
    concurrency: int = 8
    use_cache: bool = True
    resume: str | None = None
    retry_failed: bool = False
    results_dir: Path = DEFAULT_RESULTS_DIR
    cache_path: Path = DEFAULT_CACHE_PATH
    progress: ProgressCallback | None = None
    wait: str = "poll"
    policy: PairPolicy | None = None
    webhook: WebhookListen | None = None
    shard: tuple[int, int] | None = None
    split: str | None = None
    force: bool = False

    def __post_init__(self) -> None:
        # callers hand lists; a frozen value keeps a tuple
        object.__setattr__(self, "versions", tuple(self.versions))
        object.__setattr__(self, "results_dir", Path(self.results_dir))
        if self.wait not in WAIT_MODES:
            raise RunnerError(f"wait={self.wait!r} is not supported; use 'poll' or 'webhooks'")
        if self.concurrency < 1:
            raise RunnerError("concurrency must be at least 1")

    def with_changes(self, changes: Mapping[str, Any]) -> RunOptions:
        """A copy with ``changes`` applied; an unknown option is a :class:`RunnerError`."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise RunnerError(f"unknown run option(s): {', '.join(unknown)}")
        return replace(self, **changes) if changes else self
