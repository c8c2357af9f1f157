"""Executing a processor run in a worker: load → parse → extract → store, checking between
stages whether the run was canceled, and finishing with one conditional transaction."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, bindparam, select

from fieldwise._errors import ConfigError
from fieldwise.service.engines import extraction  # its engine loads on a run's first use
from fieldwise.service.engines.parsing import ParseError
from fieldwise.service.engines.processes import EnginePool, WorkerCrashed
from fieldwise.service.jobs import Job
from fieldwise.service.jobs.durable import RunFailed, RunStopped
from fieldwise.service.jobs.template import RunJob
from fieldwise.service.resources.files.ops import ParentGone, discard, store_file
from fieldwise.service.resources.files.tables import files
from fieldwise.service.resources.parse.ops_cache import ParseCache
from fieldwise.service.resources.processors.tables import processors, versions
from fieldwise.service.resources.runs.job_documents import RecentDocuments
from fieldwise.service.resources.runs.lifecycle import RUNS
from fieldwise.service.resources.training_runs.job_models import (
    ModelCache,
    TrainedRunError,
    extract_trained,
    is_trained,
)
from fieldwise.service.state import ServiceState
from fieldwise.service.store.blobs import StagedBlob
from fieldwise.service.store.prepared import by_id, prepared

if TYPE_CHECKING:
    from fieldwise.service.engines.extraction import ExtractionConfig

#: Validated configs kept per handler (a run set uses a handful of versions).
_CONFIGS_KEPT = 256


class ProcessorRunJob(RunJob[ServiceState]):
    """The ``processor_run`` job kind; ``models`` holds the trained versions' loaded models."""

    def __init__(
        self, cache: ParseCache, models: ModelCache, pool: EnginePool | None = None
    ) -> None:
        super().__init__(RUNS)
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

    def work(self, state: ServiceState, row: Any, job: Job) -> None:
        if self.pool is not None:
            # Every process at once, on the first run: a service that never runs one (most
            # CLI commands start one) spawns none, and a run set does not start on one core.
            self.pool.warm()
        self._store(state, row, job, self._work(state, row, job))

    def _work(self, state: ServiceState, row: Any, job: Job) -> dict[str, Any]:
        with state.engine.connect() as conn:
            input_file = conn.execute(by_id(conn, files), {"p_id": row.input_file_id}).first()
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
        self.check(state, row.id, job)
        if config_raw is None:
            return extraction.extract_key_values(stored.doc, confidence_threshold=threshold)
        if is_trained(config_raw):
            try:
                output = extract_trained(
                    self.models, config_raw, row.version_id, stored.doc, threshold
                )
            except TrainedRunError as exc:
                raise RunFailed(exc.reason, exc.message) from None
            self.check(state, row.id, job)
            return output
        try:
            config = self._config(row.version_id, config_raw, state.settings.allow_python_engines)
            budget = state.settings.max_pattern_seconds
            if self.pool is not None and config.engine != "python":
                output = self.pool.extract(stored, config, threshold, pattern_seconds=budget)
            else:  # python entrypoints run here, beside whatever state their module keeps
                output = state.engines.extract(
                    stored.doc, config, confidence_threshold=threshold, pattern_seconds=budget
                )
        except ConfigError as exc:
            raise RunFailed("invalid_config", str(exc)) from None
        except extraction.PatternTimeout as exc:
            raise RunFailed("pattern_timeout", str(exc)) from None
        except extraction.ExtractionError as exc:
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
            config = extraction.validate_config(raw, allow_python=allow_python)
            if len(self._configs) >= _CONFIGS_KEPT:
                self._configs.clear()
            self._configs[key] = config
        return config

    def _version(self, conn: Connection, row: Any) -> tuple[dict[str, Any] | None, float | None]:
        if row.processor_id is None:
            return None, None
        query = prepared(
            conn,
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
        except ParentGone:
            # The input file was deleted while the run worked: no output may derive from it.
            discard(state, blob)
            raise RunFailed(
                "input_missing", f"the input file {row.input_file_id} was deleted"
            ) from None
        except BaseException:
            # Canceled or deleted while we stored, or our lease was lost (another process
            # recovered the run), or worse: the transaction rolled back, keep nothing of it.
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
            values = {"output": output, "output_file_id": out_file.id}
            if RUNS.finish(conn, state.clock, row.id, "succeeded", job=job, values=values) is None:
                raise RunStopped
