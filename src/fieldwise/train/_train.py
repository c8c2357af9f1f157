"""``train_dataset``: sync → processor set-up → training run → the drafted version."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from fieldwise._errors import ConfigError, NotFoundError, TrainingFailed
from fieldwise.client import Client, TrainingRun, Version, ops
from fieldwise.datasets import Dataset, load_dataset
from fieldwise.evaluate import ensure_processor
from fieldwise.sync import SyncResult, sync_dataset

__all__ = ["TrainOptions", "Trained", "TrainingFailed", "train_dataset"]

#: (stage, done, total) of the training run, each time it is read.
Progress = Callable[[str, int, int], None]
Stage = Callable[[str], None]

_POLL_MIN = 0.1
_POLL_MAX = 1.0


class Link(Protocol):
    @property
    def identity(self) -> str: ...

    def client(self) -> Client: ...


@dataclass(frozen=True)
class TrainOptions:
    """What to learn from: the dataset's ``split``, the processor (default: the dataset's
    ``[processor]``), its base version (default: the published one) and the params."""

    split: str
    processor: str | None = None
    base_version: str | None = None
    seed: int | None = None
    params: dict[str, Any] = field(default_factory=dict)
    state_dir: Path = Path(".fieldwise")


@dataclass(frozen=True)
class Trained:
    sync: SyncResult
    processor_id: str
    run: TrainingRun
    version: Version

    @property
    def model_sha256(self) -> str:
        return str((self.run.model or {}).get("sha256", ""))


def train_dataset(
    link: Link,
    dataset_path: Path,
    options: TrainOptions,
    *,
    stage: Stage = lambda _s: None,
    progress: Progress | None = None,
) -> Trained:
    """Train a drafted version on ``options.split`` of the dataset; return it with its run.

    Ctrl-C cancels the training run (it then creates no version) and re-raises.
    """
    dataset = load_dataset(dataset_path)
    _check_split(dataset, options.split)
    with link.client() as client:
        stage(f"syncing {dataset.name} ({len(dataset.items)} documents)")
        synced = sync_dataset(
            client, dataset, state_dir=options.state_dir, service_identity=link.identity
        )
        assert synced.eval_set_id is not None
        processor_id = _processor(client, dataset, options.processor)
        params = dict(options.params)
        if options.seed is not None:
            params["seed"] = options.seed
        run = client.call(
            ops.create_training_run(
                processor_id,
                synced.eval_set_id,
                split=options.split,
                base_version_id=options.base_version,
                params=params,
            )
        )
        size = dict(dataset.split_sizes()).get(options.split, 0)
        stage(f"training {processor_id} on split {options.split} ({size} documents): {run.id}")
        try:
            run = _follow(client, run, progress or (lambda _s, _d, _t: None))
        except KeyboardInterrupt:
            client.call(ops.cancel_training_run(run.id))
            raise
        if run.status != "succeeded" or run.version_id is None:
            detail = f": {run.failure_reason}: {run.failure_message}" if run.failure_reason else ""
            raise TrainingFailed(f"training run {run.id} {run.status}{detail}")
        version = client.call(ops.get_version(processor_id, run.version_id))
    return Trained(synced, processor_id, run, version)


def _check_split(dataset: Dataset, split: str) -> None:
    sizes = dataset.split_sizes()
    if not dataset.splits:
        raise ConfigError(
            f"{dataset.root / 'dataset.toml'}: no [splits] table; declare the splits to train "
            "on (train = 0.7, test = 0.3)"
        )
    if split not in sizes:
        known = ", ".join(f"{n} ({k} documents)" for n, k in sizes.items())
        raise ConfigError(f"dataset {dataset.name} has no split {split!r} (its splits: {known})")
    if not sizes[split]:
        raise ConfigError(f"split {split!r} of dataset {dataset.name} holds no documents")


def _processor(client: Client, dataset: Dataset, processor: str | None) -> str:
    if processor is None:
        return ensure_processor(client, dataset).processor_id
    try:
        return client.get_processor(processor).id
    except NotFoundError:
        raise ConfigError(f"no processor {processor!r}") from None


def _follow(client: Client, run: TrainingRun, progress: Progress) -> TrainingRun:
    delay = _POLL_MIN
    while run.status in ("queued", "in_progress"):
        progress(run.stage, run.progress.get("done", 0), run.progress.get("total", 0))
        time.sleep(delay)
        delay = min(_POLL_MAX, delay * 1.5)
        run = client.call(ops.get_training_run(run.id))
    progress(run.stage, run.progress.get("done", 0), run.progress.get("total", 0))
    return run
