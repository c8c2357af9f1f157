"""Executing a processor run in a worker: load → parse → extract → store, checking between
stages whether the run was canceled, and finishing with one conditional transaction."""

from __future__ import annotations

import json
import logging
from typing import Any

from sqlalchemy import Connection, bindparam, select

from fieldwise._errors import ConfigError
from fieldwise.service.clock import Clock
from fieldwise.service.engines.extraction import (
    ExtractionConfig,
    ExtractionError,
    PatternTimeout,
    extract,
    extract_key_values,
    validate_config,
)
from fieldwise.service.engines.parsing import ParseError
from fieldwise.service.engines.processes import EnginePool, WorkerCrashed
from fieldwise.service.jobs import Job, fail_or_release, held
from fieldwise.service.jobs.durable import ACTIVE, RunFailed, RunStopped
from fieldwise.service.resources.files.ops import ParentGone, discard, store_file
from fieldwise.service.resources.files.tables import files
from fieldwise.service.resources.parse.cache import ParseCache
from fieldwise.service.resources.processors.tables import processors, versions
from fieldwise.service.resources.runs.documents import RecentDocuments
from fieldwise.service.resources.runs.lifecycle import finish_run, requeue_run, start_run, status_of
from fieldwise.service.resources.training_runs.models import (
    ModelCache,
    TrainedRunError,
    extract_trained,
    is_trained,
)
from fieldwise.service.state import ServiceState
from fieldwise.service.store.blobs import StagedBlob
from fieldwise.service.store.prepared import by_id, prepared

log = logging.getLogger("fieldwise.service.jobs")

#: Validated configs kept per handler (a run set uses a handful of versions).
_CONFIGS_KEPT = 256


class ProcessorRunHandler:
    """The ``processor_run`` job kind; ``models`` holds the trained versions' loaded models."""

    def __init__(
        self, cache: ParseCache, models: ModelCache, pool: EnginePool | None = None
    ) -> None:
        self.cache = cache
        self.models = models
        self.pool = pool  # rules configs are extracted on its worker processes, when given
        # The runs of one document (one per version) come together: parse once, keep it here.
        self.documents = RecentDocuments()
        # Validated configs by (version, python allowed): a version's config never changes
        # after creation, and every run of it would validate the same dict again.
        self._configs: dict[tuple[str, bool], ExtractionConfig] = {}

    def close(self) -> None:
        """Stop the worker processes (the job pool stops)."""
        if self.pool is not None:
            self.pool.close()

    def run(self, state: ServiceState, job: Job) -> None:
        if self.pool is not None:
            # Every process at once, on the first run: a service that never runs one (most
            # CLI commands start one) spawns none, and a run set does not start on one core.
            self.pool.warm()
        row = start_run(state.engine, state.clock, job)
        if row is None:
            return
        # whatever the outcome, the pool then wakes a client holding GET ?wait= on this run
        self._run(state, row, job)

    def _run(self, state: ServiceState, row: Any, job: Job) -> None:
        try:
            output = self._work(state, row, job)
        except RunStopped:
            _report_lost(state, job)
            return
        except RunFailed as failure:
            _finish_failed(state, row, job, failure)
            return
        self._store(state, row, job, output)

    def _check(self, state: ServiceState, row: Any, job: Job) -> None:
        """Between stages: stop when the run was canceled or deleted, or our lease was lost."""
        if state.leases.lost(job) or status_of(state.engine, row.id) != "in_progress":
            raise RunStopped

    def _work(self, state: ServiceState, row: Any, job: Job) -> dict[str, Any]:
        with state.engine.connect() as conn:
            input_file = conn.execute(by_id(files), {"p_id": row.input_file_id}).first()
            config_raw, threshold = self._version(conn, row)
        if input_file is None or not state.blobs.exists(input_file.sha256):
            raise RunFailed("input_missing", f"the input file {row.input_file_id} was deleted")
        try:
            stored = self.documents.get(
                input_file.sha256, lambda: self.cache.get_stored(input_file)
            )
        except ParseError as exc:
            raise RunFailed(exc.code, str(exc)) from None
        except WorkerCrashed as exc:
            raise RunFailed("worker_crashed", str(exc)) from None
        self._check(state, row, job)
        if config_raw is None:
            return extract_key_values(stored.doc, confidence_threshold=threshold)
        if is_trained(config_raw):
            try:
                output = extract_trained(
                    self.models, config_raw, row.version_id, stored.doc, threshold
                )
            except TrainedRunError as exc:
                raise RunFailed(exc.reason, exc.message) from None
            self._check(state, row, job)
            return output
        try:
            config = self._config(row.version_id, config_raw, state.settings.allow_python_engines)
            budget = state.settings.max_pattern_seconds
            if self.pool is not None and config.engine != "python":
                output = self.pool.extract(stored, config, threshold, pattern_seconds=budget)
            else:  # python entrypoints run here, beside whatever state their module keeps
                output = extract(
                    stored.doc, config, confidence_threshold=threshold, pattern_seconds=budget
                )
        except ConfigError as exc:
            raise RunFailed("invalid_config", str(exc)) from None
        except PatternTimeout as exc:
            raise RunFailed("pattern_timeout", str(exc)) from None
        except ExtractionError as exc:
            raise RunFailed("extraction_error", str(exc)) from None
        except WorkerCrashed as exc:
            raise RunFailed("worker_crashed", str(exc)) from None
        # No status read here: the finishing transaction is conditional on the run still
        # being in progress under our lease, and drops the output otherwise.
        return output

    def _config(self, version_id: str, raw: dict[str, Any], allow_python: bool) -> ExtractionConfig:
        key = (version_id, allow_python)
        config = self._configs.get(key)
        if config is None:  # a ConfigError is raised again each time, never cached
            config = validate_config(raw, allow_python=allow_python)
            if len(self._configs) >= _CONFIGS_KEPT:
                self._configs.clear()
            self._configs[key] = config
        return config

    def _version(self, conn: Connection, row: Any) -> tuple[dict[str, Any] | None, float | None]:
        if row.processor_id is None:
            return None, None
        query = prepared(
            "runs.version_config",
            lambda: (
                select(versions.c.config, processors.c.confidence_threshold)
                .select_from(versions)
                .outerjoin(processors, processors.c.id == bindparam("p_processor"))
                .where(versions.c.id == bindparam("p_version"))
            ),
        )
        params = {"p_processor": row.processor_id, "p_version": row.version_id}
        found = conn.execute(query, params).first()
        if found is None or found.config is None:
            raise RunFailed("version_missing", f"version {row.version_id} no longer exists")
        return dict(found.config), found.confidence_threshold

    def _store(self, state: ServiceState, row: Any, job: Job, output: dict[str, Any]) -> None:
        body = json.dumps(output, ensure_ascii=False, sort_keys=True).encode()
        blob = state.blobs.stage_bytes(body)
        try:
            self._commit(state, row, job, blob, output)
        except RunStopped:
            _report_lost(state, job)
            # Canceled or deleted while we stored, or our lease was lost (another process
            # recovered the run): the transaction rolled back, keep nothing of it.
            discard(state, blob)
        except ParentGone:
            # The input file was deleted while the run worked: no output may derive from it.
            discard(state, blob)
            missing = RunFailed("input_missing", f"the input file {row.input_file_id} was deleted")
            _finish_failed(state, row, job, missing)
        except BaseException:
            discard(state, blob)
            raise

    def _commit(
        self, state: ServiceState, row: Any, job: Job, blob: StagedBlob, output: dict[str, Any]
    ) -> None:
        with state.engine.begin() as conn:
            out_file = store_file(
                state,
                conn,
                blob=blob,
                filename=f"{row.id}.json",
                content_type="application/json",
                purpose="output",
                metadata={"run_id": row.id},
                derived_from=row.input_file_id,
            )
            done = finish_run(
                conn,
                state.clock,
                row.id,
                "succeeded",
                job=job,
                output=output,
                output_file_id=out_file.id,
            )
            if not done:
                raise RunStopped

    def fail(self, state: ServiceState, job: Job, reason: str, message: str) -> None:
        try:
            self._fail(state, job, reason, message)
        finally:
            state.waiters.notify(job.target_id)

    def _fail(self, state: ServiceState, job: Job, reason: str, message: str) -> None:
        fail_or_release(
            state.engine,
            state.clock,
            job,
            lambda conn: finish_run(
                conn,
                state.clock,
                job.target_id,
                "failed",
                job=job,
                from_states=ACTIVE,
                reason=reason,
                message=message,
            ),
        )

    def requeue(self, conn: Connection, clock: Clock, target_id: str) -> bool:
        return requeue_run(conn, clock, target_id)


def _finish_failed(state: ServiceState, row: Any, job: Job, failure: RunFailed) -> None:
    with state.engine.begin() as conn:
        finish_run(
            conn,
            state.clock,
            row.id,
            "failed",
            job=job,
            reason=failure.reason,
            message=failure.message,
        )


def _report_lost(state: ServiceState, job: Job) -> None:
    """Say so when work is dropped because another process took the job over (not merely
    because the run was canceled or deleted)."""
    with state.engine.connect() as conn:
        still_ours = held(conn, job)
    if not still_ours and not _finished_by_cancel(state, job):
        log.warning(
            "job %s (run %s): its lease was lost to another process; the result is dropped",
            job.id,
            job.target_id,
        )


def _finished_by_cancel(state: ServiceState, job: Job) -> bool:
    return status_of(state.engine, job.target_id) in (None, "canceled")
