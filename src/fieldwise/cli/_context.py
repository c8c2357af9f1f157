"""The object every command receives: settings, and a service connection opened on demand.

The connection options (``--base-url``, ``--api-key``, ``--data-dir``) are accepted on the
group, before the subcommand, and on every subcommand that talks to a service, after it:
:func:`pass_cli` adds them, so a command gets them by taking a :class:`CliContext`.
"""

from __future__ import annotations

import functools
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from fieldwise._config import ClientSettings

if TYPE_CHECKING:  # both load on first use: a command may finish without the service
    from fieldwise._connection import ServiceConnection
    from fieldwise.client import Client

F = TypeVar("F", bound=Callable[..., Any])

#: How long an interrupted command waits for the embedded service to stop.
_INTERRUPTED_STOP_S = 0.5


@dataclass
class CliContext:
    settings: ClientSettings
    data_dir: Path | None = None
    #: The connection flags given on the group (before the subcommand), None when not given:
    #: a subcommand's own flag may add to them but not contradict them.
    flags: dict[str, Any] = field(default_factory=dict)
    #: Set when the command was interrupted (Ctrl-C): close without waiting for the service.
    interrupted: bool = False
    _connection: ServiceConnection | None = field(default=None, repr=False)
    _client: Client | None = field(default=None, repr=False)

    def apply_flags(
        self, *, base_url: str | None, api_key: str | None, data_dir: Path | None
    ) -> None:
        """Take the connection flags given after the subcommand.

        A flag given in both places with two values is refused: either may be the one meant.
        """
        given = {"base_url": base_url, "api_key": api_key, "data_dir": data_dir}
        for name, value in given.items():
            before = self.flags.get(name)
            if value is not None and before is not None and value != before:
                option = "--" + name.replace("_", "-")
                shown = ("<hidden>", "<hidden>") if name == "api_key" else (before, value)
                raise click.UsageError(
                    f"{option} is given twice with different values ({shown[0]} before the "
                    f"command, {shown[1]} after it): give it once"
                )
        if self._connection is not None:  # pragma: no cover - flags are applied before any use
            raise RuntimeError("connection flags applied after the connection opened")
        if base_url is not None:
            self.settings = replace(self.settings, base_url=base_url)
        if api_key is not None:
            self.settings = replace(self.settings, api_key=api_key)
        if data_dir is not None:
            self.data_dir = data_dir
        self.flags.update({k: v for k, v in given.items() if v is not None})

    def command(self, *words: str) -> str:
        """``fieldwise WORDS`` as a shell command, with the connection flags this invocation
        was given (an API key is never printed: give it as FIELDWISE_API_KEY)."""
        given: list[str] = []
        if self.flags.get("base_url") is not None:
            given += ["--base-url", str(self.flags["base_url"])]
        if self.flags.get("data_dir") is not None:
            given += ["--data-dir", str(self.flags["data_dir"])]
        return shlex.join(["fieldwise", *given, *words])

    def connection(self) -> ServiceConnection:
        """The service connection, starting the embedded service the first time it is needed."""
        if self._connection is None:
            from fieldwise._connection import connect

            self._connection = connect(self.settings, data_dir=self.data_dir)
        return self._connection

    def serving(self) -> bool:
        """Whether a service is reachable without starting one: ``--base-url`` names it, or
        this command already started the embedded one."""
        return bool(self.settings.base_url) or self._connection is not None

    def client(self) -> Client:
        if self._client is None:
            self._client = self.connection().client()
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
        if self._connection is not None:
            # Interrupted: the user wants the prompt back. Jobs the embedded service still
            # holds are durable (their leases are recovered on its next start), so it is not
            # waited for; its threads are daemons and its engine processes follow their parent.
            self._connection.close(timeout=_INTERRUPTED_STOP_S if self.interrupted else 10.0)


def connection_options(func: F) -> F:
    """``--base-url``, ``--api-key`` and ``--data-dir``: declared once, for the group and for
    every subcommand that talks to a service (the environment is read in ``fieldwise._config``,
    so a flag here overrides ``FIELDWISE_BASE_URL``/``FIELDWISE_API_KEY``)."""
    func = click.option(
        "--data-dir",
        type=click.Path(file_okay=False, path_type=Path),
        help="Data folder of the embedded local service [default: .fieldwise/service].",
    )(func)
    func = click.option(
        "--api-key", metavar="KEY", help="API key for --base-url [env FIELDWISE_API_KEY]."
    )(func)
    return click.option(
        "--base-url",
        metavar="URL",
        help="Service to talk to [env FIELDWISE_BASE_URL]. Without it, fieldwise starts "
        "its embedded local service.",
    )(func)


def pass_cli(func: F) -> F:
    """Pass the :class:`CliContext` as the first argument, and accept the connection options
    after the subcommand too (``fieldwise evaluate DS --base-url URL``)."""

    @connection_options
    @functools.wraps(func)
    def command(
        *args: Any,
        base_url: str | None,
        api_key: str | None,
        data_dir: Path | None,
        **kwargs: Any,
    ) -> Any:
        state = click.get_current_context().find_object(CliContext)
        if state is None:  # pragma: no cover - the group always sets it
            raise RuntimeError("no CliContext: run the command through the fieldwise group")
        state.apply_flags(base_url=base_url, api_key=api_key, data_dir=data_dir)
        try:
            return func(state, *args, **kwargs)
        except BaseException as exc:
            # Ctrl-C, or a library error saying it was interrupted (exit 130)
            if isinstance(exc, KeyboardInterrupt) or getattr(exc, "exit_code", None) == 130:
                state.interrupted = True
            raise

    return command  # type: ignore[return-value]


def json_option(func: F) -> F:
    """``--json``: machine-readable output instead of a table."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")(
        func
    )
