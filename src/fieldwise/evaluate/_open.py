"""Open run sets for analysis: the one call ``compare``, ``report``, ``gate`` and their Python
equivalents make. Load the run sets, merge them (refused when not comparable, unless
``force``), pick the specs and the policy, then score, decide or score at scale.

Whether statistics are kept with the run set is decided here, once: only for one whole run
set (merged run sets are scored each time, since no single folder holds what they were scored
from).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from fieldwise.client import Client
from fieldwise.evaluate._analysis import Analysis, analyze, resolve_policy
from fieldwise.evaluate._combine import combine_runsets, only_split, training_notes
from fieldwise.evaluate._regate import Regated, regate
from fieldwise.evaluate._scale import ScaledScore, score_at_scale
from fieldwise.evaluate._specs import ResolvedSpecs, resolve_specs
from fieldwise.gate import Policy
from fieldwise.runner import DEFAULT_RESULTS_DIR, LoadedRunSet, load_runset

__all__ = [
    "Opened",
    "RunsetSelection",
    "analyze_runsets",
    "now_iso",
    "open_runsets",
    "regate_runsets",
    "score_runsets_at_scale",
]


@dataclass(frozen=True)
class RunsetSelection:
    """Which run sets to read (their versions side by side), which versions, where the spec
    comes from (a dataset folder, else the evaluation set), and whether to compare despite
    differing ground truth or spec."""

    runset_ids: tuple[str, ...]
    baseline: str | None = None
    candidates: tuple[str, ...] = ()
    dataset_path: Path | None = None
    results_dir: Path = DEFAULT_RESULTS_DIR
    force: bool = False

    @property
    def runset_id(self) -> str:
        """The first run set (whose documents and manifest the others are merged into)."""
        return self.runset_ids[0]


@dataclass(frozen=True)
class Opened:
    """Run sets opened for analysis: merged (restricted to a split when asked), their specs,
    what ``force`` overrode, and whether they are one whole run set on disk (``keep``: its
    statistics may be stored with it)."""

    runset: LoadedRunSet
    resolved: ResolvedSpecs
    forced: tuple[str, ...]
    keep: bool

    def policy(self, policy_path: Path | None) -> Policy:
        """The gate policy: ``policy_path``, else the dataset's or evaluation set's ``[gate]``."""
        return resolve_policy(
            policy_path=policy_path,
            dataset_toml=self.resolved.toml,
            recorded_gate=self.resolved.gate,
            specs=self.resolved.specs,
        )


def open_runsets(
    selection: RunsetSelection, connect: Callable[[], Client], *, split: str | None = None
) -> Opened:
    """Load and merge the selected run sets (:class:`IncomparableError` unless ``force``).

    ``connect`` gives a client, called only when a run set does not carry its evaluation
    set's specs (older run sets)."""
    loaded = [load_runset(r, selection.results_dir) for r in selection.runset_ids]
    combined = combine_runsets(loaded, force=selection.force)
    runset = only_split(combined.runset, split)
    resolved = resolve_specs(runset, selection.dataset_path, connect)
    return Opened(runset, resolved, combined.forced, len(loaded) == 1 and split is None)


def now_iso() -> str:
    """Now, UTC, to the second: the ``generated_at`` of reports made now."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def analyze_runsets(
    selection: RunsetSelection,
    connect: Callable[[], Client],
    *,
    policy_path: Path | None = None,
    with_policy: bool = True,
    split: str | None = None,
    generated_at: str | None = None,
) -> Analysis:
    """Score the selected run sets with every table, decide (unless ``with_policy`` is False)
    and build the report data; ``generated_at`` defaults to now (UTC)."""
    opened = open_runsets(selection, connect, split=split)
    resolved = opened.resolved
    return analyze(
        opened.runset,
        resolved.specs,
        opened.policy(policy_path) if with_policy else None,
        generated_at=generated_at or now_iso(),
        baseline=selection.baseline,
        candidates=selection.candidates,
        spec_hash=resolved.spec_hash,
        forced=opened.forced,
    )


def regate_runsets(
    selection: RunsetSelection,
    connect: Callable[[], Client],
    *,
    policy_path: Path | None = None,
) -> Regated:
    """Decide from the run sets' merged statistics: stored with a single run set, so gating
    it again under another policy reads no cell and runs no comparator."""
    opened = open_runsets(selection, connect)
    return regate(
        opened.runset,
        opened.resolved.specs,
        opened.policy(policy_path),
        baseline=selection.baseline,
        candidates=selection.candidates,
        store=opened.keep,
        forced=(*opened.forced, *training_notes(opened.runset)),
    )


def score_runsets_at_scale(
    selection: RunsetSelection,
    connect: Callable[[], Client],
    *,
    executor: str | None,
    scheduler: str | None,
    split: str | None = None,
) -> ScaledScore:
    """Score the selected run sets with ``executor`` over their partitioned cells (without
    one: from their stored statistics, as one partition)."""
    opened = open_runsets(selection, connect, split=split)
    scaled = score_at_scale(
        opened.runset,
        opened.resolved.specs,
        executor=executor,
        scheduler=scheduler,
        baseline=selection.baseline,
        candidates=selection.candidates,
        store=opened.keep,
    )
    return replace(scaled, forced=opened.forced)
