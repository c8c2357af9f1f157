"""How the toolkit reaches a service: the configured remote one, or the embedded local one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fieldwise._config import ClientSettings
from fieldwise._errors import ConfigError
from fieldwise.client import AsyncClient, Client

if TYPE_CHECKING:
    # The service (FastAPI, SQLAlchemy, uvicorn: ~0.6 s of imports) is imported only when this
    # process embeds it; a command talking to --base-url never loads it.
    from fieldwise.service.server import RunningService


@dataclass
class ServiceConnection:
    """A base URL and key to talk to, plus the embedded service behind them if we started it."""

    base_url: str
    api_key: str
    settings: ClientSettings
    #: Stable name of the service for local state: the base URL, or ``local:<data dir>`` for
    #: the embedded service (whose port changes on every start).
    identity: str
    embedded: RunningService | None = None

    def client(self, **kwargs: Any) -> Client:
        return Client(
            self.base_url,
            self.api_key,
            timeout=self.settings.timeout,
            max_retries=self.settings.max_retries,
            **kwargs,
        )

    def async_client(self, **kwargs: Any) -> AsyncClient:
        return AsyncClient(
            self.base_url,
            self.api_key,
            timeout=self.settings.timeout,
            max_retries=self.settings.max_retries,
            **kwargs,
        )

    def close(self, timeout: float = 10.0) -> None:
        """Stop the embedded service, waiting at most ``timeout`` seconds for its jobs."""
        if self.embedded is not None:
            self.embedded.stop(timeout)
            self.embedded = None

    def __enter__(self) -> ServiceConnection:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def identity_of(settings: ClientSettings, *, data_dir: Path | None = None) -> str:
    """The :attr:`ServiceConnection.identity` :func:`connect` would give, without connecting
    (a command asks it to know whether a run set ran on the service it would talk to)."""
    if settings.base_url:
        return settings.base_url.rstrip("/")
    from fieldwise.service.server import embedded_settings

    return f"local:{embedded_settings(data_dir).data_dir.resolve()}"


def connect(settings: ClientSettings, *, data_dir: Path | None = None) -> ServiceConnection:
    """Connect to ``settings.base_url``; without one, start the embedded local service."""
    if settings.base_url:
        if not settings.api_key:
            raise ConfigError(
                f"no API key for {settings.base_url}: pass --api-key or set FIELDWISE_API_KEY"
            )
        base_url = identity_of(settings)
        return ServiceConnection(base_url, settings.api_key, settings, identity=base_url)
    from fieldwise.service.server import embedded_settings, start_in_thread

    service = embedded_settings(data_dir)
    # Without the web console: nobody can reach it (a random port, a key only this process
    # knows), and not importing it shortens every command that starts the service.
    running = start_in_thread(service, console=False)
    return ServiceConnection(
        running.base_url,
        running.api_key,
        settings,
        identity=identity_of(settings, data_dir=data_dir),
        embedded=running,
    )
