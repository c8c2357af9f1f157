"""The object every command receives: settings, and a service connection opened on demand."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from fieldwise._config import ClientSettings

if TYPE_CHECKING:  # both load on first use: a command may finish without the service
    from fieldwise._connection import ServiceConnection
    from fieldwise.client import Client

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class CliContext:
    settings: ClientSettings
    data_dir: Path | None = None
    _connection: ServiceConnection | None = field(default=None, repr=False)
    _client: Client | None = field(default=None, repr=False)

    def connection(self) -> ServiceConnection:
        """The service connection, starting the embedded service the first time it is needed."""
        if self._connection is None:
            from fieldwise._connection import connect

            self._connection = connect(self.settings, data_dir=self.data_dir)
        return self._connection

    def client(self) -> Client:
        if self._client is None:
            self._client = self.connection().client()
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
        if self._connection is not None:
            self._connection.close()


pass_cli = click.make_pass_decorator(CliContext)


def json_option(func: F) -> F:
    """``--json``: machine-readable output instead of a table."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")(
        func
    )
