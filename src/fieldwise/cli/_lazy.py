"""A click group that imports a command's module only when that command runs.

Importing every command up front pulled in the service (FastAPI, SQLAlchemy), pandas and the
compare stack, so ``fieldwise --help`` took over a second. Each command is named here with its
module, its attribute and its one-line help, so listing commands imports nothing;
``tests/cli/test_lazy.py`` keeps the one-line help equal to the command's own.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import click


@dataclass(frozen=True)
class LazyCommand:
    """Where a command lives: ``module:attribute``, and its one-line help for listings."""

    module: str
    attribute: str
    short_help: str


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def __init__(self, *args: Any, lazy: dict[str, LazyCommand], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = self.lazy.get(cmd_name)
        if entry is None:
            return super().get_command(ctx, cmd_name)
        command = getattr(importlib.import_module(entry.module), entry.attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{entry.module}.{entry.attribute} is not a click command")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # The listing uses the recorded one-line help, so `--help` imports no command module.
        rows = [
            (name, self.lazy[name].short_help)
            for name in self.list_commands(ctx)
            if name in self.lazy
        ]
        eager = [
            (name, command.get_short_help_str(formatter.width))
            for name, command in self.commands.items()
            if not command.hidden
        ]
        rows = sorted(rows + eager)
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


__all__ = ["LazyCommand", "LazyGroup"]
