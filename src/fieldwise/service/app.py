"""``create_app(settings)``: the local Document Processing Service as a FastAPI application."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

from fastapi import APIRouter, FastAPI, Security
from fastapi.security import APIKeyHeader

from fieldwise._config import ServiceSettings
from fieldwise._errors import ConfigError
from fieldwise.service.clock import Clock, SystemClock
from fieldwise.service.console.sessions import console_sessions
from fieldwise.service.engines.processes import EnginePool
from fieldwise.service.events.outbox import events
from fieldwise.service.events.webhooks.dispatcher import webhook_worker
from fieldwise.service.events.webhooks.tables import WEBHOOK_TABLES
from fieldwise.service.http import apidocs
from fieldwise.service.http.auth import KeyRing
from fieldwise.service.http.errors import ERROR_RESPONSES, install_error_handlers
from fieldwise.service.http.middleware import (
    ApiKeyMiddleware,
    BodyLimitMiddleware,
    RateLimitMiddleware,
    RequestIdMiddleware,
)
from fieldwise.service.http.ratelimit import AuthFailures, TokenBucket
from fieldwise.service.http.unicode import LoneSurrogateMiddleware
from fieldwise.service.jobs import jobs
from fieldwise.service.jobs.leases import LeaseKeeper
from fieldwise.service.jobs.pool import WorkerPool
from fieldwise.service.jobs.tables import LEASE_COLUMNS
from fieldwise.service.jobs.workers import JobWorkers
from fieldwise.service.resources.api_keys import routes as api_keys_routes
from fieldwise.service.resources.api_keys.ops import KeyAuthenticator, bootstrap_keys
from fieldwise.service.resources.api_keys.tables import upgrade_api_keys
from fieldwise.service.resources.deliveries import routes as deliveries_routes
from fieldwise.service.resources.evaluation_runs import routes as evaluation_runs_routes
from fieldwise.service.resources.evaluation_runs.job import evaluation_services
from fieldwise.service.resources.evaluation_runs.tables import EVALUATION_TABLES
from fieldwise.service.resources.evaluation_sets import routes as evaluation_sets_routes
from fieldwise.service.resources.evaluation_sets.tables import (
    CONTENT_COLUMNS,
    evaluation_sets,
    items,
)
from fieldwise.service.resources.extract import routes as extract_routes
from fieldwise.service.resources.files import routes as files_routes
from fieldwise.service.resources.files.tables import files
from fieldwise.service.resources.parse import lifecycle as parse_runs_lifecycle
from fieldwise.service.resources.parse import routes as parse_routes
from fieldwise.service.resources.parse.job import ParseRunJob
from fieldwise.service.resources.parse.ops_cache import ParseCache
from fieldwise.service.resources.parse.tables import parse_cache, parse_runs
from fieldwise.service.resources.processors import routes as processors_routes
from fieldwise.service.resources.processors.ops_configs import config_validator
from fieldwise.service.resources.processors.tables import (
    processors,
    unique_version_numbers,
    versions,
)
from fieldwise.service.resources.runs import lifecycle as runs_lifecycle
from fieldwise.service.resources.runs import routes as runs_routes
from fieldwise.service.resources.runs.job import ProcessorRunJob
from fieldwise.service.resources.runs.ops_retention import Sweeper
from fieldwise.service.resources.runs.tables import processor_runs
from fieldwise.service.resources.training_runs import routes as training_runs_routes
from fieldwise.service.resources.training_runs.job import training_services
from fieldwise.service.resources.training_runs.job_models import ModelCache
from fieldwise.service.resources.training_runs.tables import training_runs
from fieldwise.service.resources.webhook_endpoints import routes as webhook_endpoints_routes
from fieldwise.service.resources.workflows import routes as workflows_routes
from fieldwise.service.resources.workflows.job import WorkflowStepHandler
from fieldwise.service.resources.workflows.tables import batches, workflow_runs, workflows
from fieldwise.service.state import Background, Engines, ServiceState
from fieldwise.service.store import Migration, adding, creating, database_url, make_engine, migrate
from fieldwise.service.store.blobs import BlobStore

#: Every resource's router, mounted in this order (one line each). FastAPI builds an included
#: router's routes (dependencies, response models: ~3 ms each) on the first request that is
#: matched against it, in this order; evaluation sets come first because an unchanged re-sync
#: is one GET of a set in a fresh process, which then builds 9 routes rather than 23.
ROUTERS: tuple[APIRouter, ...] = (
    evaluation_sets_routes.router,
    files_routes.router,
    processors_routes.router,
    webhook_endpoints_routes.router,
    deliveries_routes.router,
    runs_routes.router,
    extract_routes.router,
    parse_routes.router,
    workflows_routes.router,
    evaluation_runs_routes.router,
    api_keys_routes.router,
    training_runs_routes.router,
)

#: The schema, as named migrations over every resource's tables; handed to the store's runner.
#: Append new ones at the end (one line each); never rename or reorder applied ones.
MIGRATIONS: tuple[Migration, ...] = (
    (
        "0001_core_resources",
        # api_keys: created (or upgraded from its first shape) by 0007.
        creating(files, processors, versions, evaluation_sets, items),
    ),
    ("0002_event_outbox", creating(events)),
    ("0003_webhooks", creating(*WEBHOOK_TABLES)),
    (
        "0004_runs_and_jobs",
        creating(jobs, processor_runs, parse_runs, parse_cache, workflows, workflow_runs, batches),
    ),
    ("0005_evaluation_runs", creating(*EVALUATION_TABLES)),
    ("0006_job_leases", adding(jobs, *LEASE_COLUMNS)),
    ("0007_api_key_scopes", upgrade_api_keys),
    ("0008_console_sessions", creating(console_sessions)),
    ("0009_version_number_unique", unique_version_numbers),
    ("0010_training_runs", creating(training_runs)),
    ("0011_console_operator_sessions", adding(console_sessions, "operator_fingerprint")),
    ("0012_version_verdicts", adding(versions, "verdict", "publish_override")),
    ("0013_evaluation_set_digests", adding(evaluation_sets, *CONTENT_COLUMNS)),
)


def run_workers(state: ServiceState) -> WorkerPool[ServiceState]:
    """The pool of processor-run, parse-run and workflow-step jobs (one parse cache for both)."""
    pool = EnginePool(state.settings.workers)  # parse and extract on every core
    cache = ParseCache(state, pool)
    return WorkerPool(
        state,
        {
            runs_lifecycle.JOB_KIND: ProcessorRunJob(cache, ModelCache(state.blobs), pool),
            parse_runs_lifecycle.JOB_KIND: ParseRunJob(cache),
            runs_lifecycle.WORKFLOW_STEP: WorkflowStepHandler(),
        },
    )


def job_workers(state: ServiceState) -> JobWorkers:
    """Every job pool, started once this process may claim. Evaluation jobs have a pool of
    their own: they wait on processor runs, so the two pools never starve each other; so do
    training jobs, which take minutes of CPU that processor runs must not queue behind."""
    return JobWorkers(
        database_url(state.settings),
        [run_workers(state), evaluation_services(state), training_services(state)],
        announce=_stderr,
    )


def _lease_keeper(state: ServiceState) -> LeaseKeeper:
    return state.leases


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


#: What runs beside the routes while the app lives (started in order, stopped in reverse).
BACKGROUND: tuple[Callable[[ServiceState], Background], ...] = (
    _lease_keeper,
    webhook_worker,
    job_workers,
    Sweeper,
)

# Documents the header in the OpenAPI schema; ApiKeyMiddleware is what enforces it.
_api_key_doc = APIKeyHeader(name="x-api-key", auto_error=False)

# Room for multipart framing and the metadata part around the largest allowed file.
_MULTIPART_SLACK = 1024 * 1024
# JSON bodies are parsed in memory: far below the upload limit (413 past it).
_MAX_JSON_BYTES = 10 * 1024 * 1024


async def _document_api_key(_key: str | None = Security(_api_key_doc)) -> None:
    # async: FastAPI runs a plain ``def`` dependency in its thread pool, a thread hop per
    # request for nothing
    return None


def _check_writable(data_dir: Path) -> None:
    """Fail at startup with one clear line, not a database traceback, on a read-only data dir."""
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        probe = data_dir / ".write-probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise ConfigError(f"the data dir {data_dir} is not writable ({exc.strerror})") from None


def build_state(
    settings: ServiceSettings,
    *,
    clock: Clock | None = None,
    keyring: KeyRing | None = None,
    engines: Engines | None = None,
) -> ServiceState:
    """What every part of the service shares: the migrated database, blobs, clock, leases,
    the engines it calls (the real ones unless given)."""
    _check_writable(settings.data_dir)
    clock = clock or SystemClock()
    engine = make_engine(database_url(settings), idle_in_transaction=settings.lease_seconds)
    migrate(engine, MIGRATIONS)
    return ServiceState(
        settings=settings,
        engine=engine,
        blobs=BlobStore(settings.blob_dir),
        keyring=keyring or KeyRing(()),
        clock=clock,
        leases=LeaseKeeper(engine, clock, settings.lease_seconds, settings.heartbeat_seconds),
        config_validator=config_validator(allow_python=settings.allow_python_engines),
        engines=engines or Engines(),
    )


def start_background(state: ServiceState) -> list[Background]:
    """Start everything in :data:`BACKGROUND`, in order; stop with :func:`stop_background`."""
    started: list[Background] = []
    try:
        for factory in BACKGROUND:
            worker = factory(state)
            worker.start()
            started.append(worker)
    except BaseException:
        stop_background(state, started)
        raise
    return started


def stop_background(state: ServiceState, started: list[Background]) -> None:
    for worker in reversed(started):
        worker.stop()
    state.engine.dispose()


def create_app(
    settings: ServiceSettings,
    *,
    clock: Clock | None = None,
    announce: Callable[[str], None] | None = None,
    console: bool = True,
    engines: Engines | None = None,
) -> FastAPI:
    """Build the service: migrate the database, load keys, mount routes and middleware.

    ``console=False`` leaves the web console out: the embedded service a CLI command starts
    answers only that command's client, on a port and with a key nobody else is told, and
    importing the console's pages and templates would slow every such command. ``engines``
    replaces the engine calls the service makes in its own process (tests hold them there)."""
    state = build_state(settings, clock=clock, engines=engines)
    keyring = bootstrap_keys(
        state.engine, settings, state.clock, **({"announce": announce} if announce else {})
    )
    state = replace(state, keyring=keyring)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        started = start_background(state)
        try:
            yield
        finally:
            stop_background(state, started)

    app = FastAPI(
        lifespan=lifespan,
        title="fieldwise local Document Processing Service",
        version="1",
        description="A local implementation of the Document Processing Service interface.",
        dependencies=[Security(_document_api_key)],
        responses=ERROR_RESPONSES,
        docs_url=None,
        redoc_url=None,
    )
    app.state.fieldwise = state
    install_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    app.include_router(apidocs.router)

    # Outermost last: request ids first, then auth, then the rate limit, then the body limit
    # (which bounds what the lone-surrogate check buffers).
    app.add_middleware(LoneSurrogateMiddleware)
    app.add_middleware(
        BodyLimitMiddleware,
        max_bytes=settings.max_upload_bytes + _MULTIPART_SLACK,
        max_json_bytes=_MAX_JSON_BYTES,
        read_timeout=settings.body_read_timeout,
    )
    failures = None
    if settings.rate_limit_per_second:
        bucket = TokenBucket(settings.rate_limit_per_second, settings.rate_limit_burst)
        app.add_middleware(RateLimitMiddleware, bucket=bucket)
        # Wrong keys, per client address: the same rate and burst, a bucket of their own.
        failures = AuthFailures(
            TokenBucket(settings.rate_limit_per_second, settings.rate_limit_burst)
        )
    authenticate = KeyAuthenticator(state.engine, keyring, state.clock)
    if console:
        from fieldwise.service.console.routes import install_console

        install_console(app, state, authenticate, failures)
    # The console signs in into sessions of its own; /docs is a page and assets with no data.
    app.add_middleware(
        ApiKeyMiddleware,
        authenticate=authenticate,
        exempt=("/console", apidocs.DOCS_PREFIX),
        operator=authenticate.operator,
        failures=failures,
    )
    app.add_middleware(RequestIdMiddleware)
    return app


def app_state(app: FastAPI) -> ServiceState:
    state: ServiceState = app.state.fieldwise
    return state
