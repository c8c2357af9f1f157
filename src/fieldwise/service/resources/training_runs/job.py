"""The ``training_run`` job: parse the items' files (through the parse cache), train, store
the model as a blob, and finish in one transaction with the drafted version and the event.

Training jobs run in a worker pool of their own (:func:`training_services`): a training run
takes minutes of CPU, and processor runs must not queue behind it. Between items, and inside
training through ``should_stop``, the worker checks whether the run was canceled (or its lease
lost, or the service is stopping: then the run is requeued and trained again later).
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from sqlalchemy import Row, select

from fieldwise.service.engines.parsing import ParseError
from fieldwise.service.engines.training import TrainingCanceled, TrainingExample, TrainParams
from fieldwise.service.ids import isoformat
from fieldwise.service.jobs import Job
from fieldwise.service.jobs.durable import RunFailed, RunInterrupted, RunStopped
from fieldwise.service.jobs.pool import StoppingPool
from fieldwise.service.jobs.template import RunJob
from fieldwise.service.resources.evaluation_sets.tables import items
from fieldwise.service.resources.files.ops import discard, store_file
from fieldwise.service.resources.files.tables import files
from fieldwise.service.resources.parse.ops_cache import ParseCache
from fieldwise.service.resources.processors.ops import insert_version
from fieldwise.service.resources.training_runs.job_models import trained_config
from fieldwise.service.resources.training_runs.lifecycle import JOB_KIND, TRAININGS, set_progress
from fieldwise.service.resources.training_runs.tables import training_runs
from fieldwise.service.state import ServiceState
from fieldwise.service.store.blobs import StagedBlob

#: At most this often (seconds) a worker writes progress or re-reads the run's status.
_EVERY = 0.25
#: Items read per query.
_CHUNK = 1000


class _Watch:
    """``should_stop`` and ``progress`` of one training, throttled to :data:`_EVERY`."""

    def __init__(self, state: ServiceState, run_id: str, job: Job, stopping: threading.Event):
        self.state, self.run_id, self.job, self.stopping = state, run_id, job, stopping
        self.stage = "parsing"
        self._checked = self._written = 0.0
        self._stop = False

    def should_stop(self) -> bool:
        if self.stopping.is_set():
            return True
        now = time.monotonic()
        if not self._stop and now - self._checked >= _EVERY:
            self._checked = now
            lost = self.state.leases.lost(self.job)
            self._stop = lost or TRAININGS.status_of(self.state.engine, self.run_id) != (
                "in_progress"
            )
        return self._stop

    def progress(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done >= total or now - self._written >= _EVERY:
            self._written = now
            set_progress(self.state.engine, self.state.clock, self.run_id, self.stage, done, total)

    def check(self) -> None:
        """Between stages: raise when the work must stop."""
        if self.should_stop():
            raise RunInterrupted if self.stopping.is_set() else RunStopped


class TrainingRunJob(RunJob[ServiceState]):
    """The ``training_run`` job kind; ``stopping`` is set when the service shuts down."""

    def __init__(self, cache: ParseCache, stopping: threading.Event) -> None:
        super().__init__(TRAININGS)
        self.cache = cache
        self.stopping = stopping

    def work(self, state: ServiceState, row: Row[Any], job: Job) -> None:
        watch = _Watch(state, row.id, job, self.stopping)
        examples = self._examples(state, row, watch)
        watch.stage = "training"
        params = TrainParams.from_mapping(row.params)
        try:
            blob = state.engines.train(  # scikit-learn loads here, not at start-up
                examples,
                row.fields,
                params,
                progress=watch.progress,
                should_stop=watch.should_stop,
            )
        except TrainingCanceled:
            watch.check()
            raise RunStopped from None
        except ValueError as exc:  # the engine's TrainingError: what it cannot learn from
            raise RunFailed("training_error", str(exc)) from None
        watch.stage = "storing"
        watch.check()
        self._commit(state, row, job, blob)

    def _examples(self, state: ServiceState, row: Any, watch: _Watch) -> list[TrainingExample]:
        """The items' parsed documents and ground truth, ordered by document content (so the
        same documents give the same model whatever their ids)."""
        wanted = list(row.item_ids)
        found: list[Any] = []
        with state.engine.connect() as conn:
            # in chunks: PostgreSQL takes at most 65535 bound parameters in one statement
            for start in range(0, len(wanted), _CHUNK):
                found += conn.execute(
                    select(items.c.id.label("item_id"), items.c.ground_truth, files)
                    .select_from(items.outerjoin(files, files.c.id == items.c.file_id))
                    .where(items.c.id.in_(wanted[start : start + _CHUNK]))
                )
        missing = sorted(set(row.item_ids) - {r.item_id for r in found})
        if missing:
            raise RunFailed("item_missing", f"item {missing[0]} was deleted before training")
        found.sort(key=lambda r: (r.sha256 or "", r.item_id))
        examples = []
        for n, item in enumerate(found):
            watch.check()
            if item.sha256 is None or not state.blobs.exists(item.sha256):
                raise RunFailed("input_missing", f"the file of item {item.item_id} was deleted")
            try:
                document = self.cache.get(item)
            except ParseError as exc:
                raise RunFailed(exc.code, f"item {item.item_id} ({item.filename}): {exc}") from None
            examples.append(TrainingExample(document=document, truth=item.ground_truth))
            watch.progress(n + 1, len(found))
        return examples

    def _commit(self, state: ServiceState, row: Any, job: Job, blob: bytes) -> None:
        staged = state.blobs.stage_bytes(blob)
        training = {
            "training_run_id": row.id,
            "eval_set_id": row.eval_set_id,
            "split": row.split,
            "item_ids": list(row.item_ids),
            "params": dict(row.params),
            "base_version_id": row.base_version_id,
        }
        try:
            self._record(state, row, job, staged, training)
        except BaseException:
            # nothing committed: neither the staged bytes nor a placed blob no file uses stay
            discard(state, staged)
            raise

    def _record(
        self,
        state: ServiceState,
        row: Any,
        job: Job,
        staged: StagedBlob,
        training: dict[str, Any],
    ) -> None:
        """One transaction: the model's file row, the drafted version, the run's success and
        its event. Canceled meanwhile (or the lease lost): all of it rolls back."""
        stamp = isoformat(state.clock.now())
        sha, size = staged.sha256, staged.size
        with state.engine.begin() as conn:
            store_file(
                state,
                conn,
                blob=staged,
                filename=f"{row.id}.model",
                content_type="application/octet-stream",
                purpose="model",
                metadata={"training_run_id": row.id, "processor_id": row.processor_id},
            )
            version = insert_version(
                conn,
                stamp,
                row.processor_id,
                config=trained_config(sha, size, list(row.fields), training),
                description=f"trained by {row.id} on {len(row.item_ids)} items"
                + (f" of split {row.split}" if row.split else ""),
            )
            done = TRAININGS.finish(
                conn,
                state.clock,
                row.id,
                "succeeded",
                job=job,
                values={
                    "model_sha256": sha,
                    "model_size": size,
                    "version_id": version.id,
                    "stage": "done",
                    "progress_done": training_runs.c.progress_total,
                },
            )
            if done is None:
                raise RunStopped


def training_services(state: ServiceState) -> StoppingPool[ServiceState]:
    """The worker pool of training jobs; the factory in ``fieldwise.service.app``."""
    # A training is minutes of CPU: more at once than cores only take turns on them
    # (``workers`` sizes the run pools, whose threads mostly wait on engine processes).
    threads = min(state.settings.workers, os.cpu_count() or 1)
    cache = ParseCache(state)
    return StoppingPool(
        state, JOB_KIND, lambda stopping: TrainingRunJob(cache, stopping), threads=threads
    )
