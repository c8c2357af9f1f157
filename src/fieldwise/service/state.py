"""What every route needs, built once by ``create_app`` and reached through the request."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Protocol

from fastapi import Depends, Request
from sqlalchemy import Engine

from fieldwise._config import ServiceSettings
from fieldwise._errors import ConfigError
from fieldwise.service.clock import Clock
from fieldwise.service.http.auth import KeyRing
from fieldwise.service.http.errors import ApiError
from fieldwise.service.http.waiting import Waiters
from fieldwise.service.ids import isoformat
from fieldwise.service.jobs.leases import LeaseKeeper
from fieldwise.service.store.blobs import BlobStore

if TYPE_CHECKING:
    from fieldwise.service.engines.parsing import ParsedDocument


class Background(Protocol):
    """Something that runs beside the routes while the app lives (workers, dispatcher, sweeper)."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


def _parse_document(data: bytes, **options: Any) -> ParsedDocument:
    # the parsers (PDF, images, OCR) load on the first parse, not at the service's start
    from fieldwise.service.engines.parsing.api import parse_document

    return parse_document(data, **options)


def _extract(doc: ParsedDocument, config: Any, **options: Any) -> dict[str, Any]:
    # the rules engine and its vocabularies load on the first extraction
    from fieldwise.service.engines.extraction.engine import extract

    return extract(doc, config, **options)


def _train_model(examples: Any, fields: Any, params: Any, **hooks: Any) -> bytes:
    # numpy and scikit-learn load on the first training
    from fieldwise.service.engines.training.model import train_model

    return train_model(examples, fields, params, **hooks)


@dataclass(frozen=True)
class Engines:
    """The engine calls the service makes in its own process: ``parse`` (the parse cache's
    ``parse_document``), ``extract`` (a processor run's python-engine ``extract``) and
    ``train`` (a training run's ``train_model``), with those functions' signatures. Each
    defaults to the real engine, imported on its first call; a test hands
    :func:`~fieldwise.service.app.create_app` other ones to hold or observe a call, whatever
    module the call site imports. (Calls made in the engine worker processes go through
    :class:`~fieldwise.service.engines.processes.EnginePool`.)"""

    parse: Callable[..., ParsedDocument] = _parse_document
    extract: Callable[..., dict[str, Any]] = _extract
    train: Callable[..., bytes] = _train_model


@dataclass(frozen=True)
class ServiceState:
    settings: ServiceSettings
    engine: Engine
    blobs: BlobStore
    keyring: KeyRing
    clock: Clock
    leases: LeaseKeeper
    config_validator: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    #: The requests held until work ends (``?wait=``), woken by whoever ends it.
    waiters: Waiters = field(default_factory=Waiters)
    #: The engines the routes and jobs call in this process.
    engines: Engines = field(default_factory=Engines)

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """A version config checked by the extraction engine; 422 naming the bad key."""
        if self.config_validator is None:
            return config
        try:
            return self.config_validator(config)
        except ConfigError as exc:
            raise ApiError(422, f"config.{exc}", param="config") from None

    def base_url(self, request: Request) -> str:
        """The public base URL: configured, else the one the caller used."""
        if self.settings.public_base_url:
            return self.settings.public_base_url.rstrip("/")
        return str(request.base_url).rstrip("/")


async def get_state(request: Request) -> ServiceState:
    # async: a plain ``def`` dependency would cost every request a hop to the thread pool
    state: ServiceState = request.app.state.fieldwise
    return state


#: A route's parameter that is the service's state.
State = Annotated[ServiceState, Depends(get_state)]


def now(state: ServiceState) -> str:
    """The service clock's time, as stored (ISO 8601 UTC)."""
    return isoformat(state.clock.now())
