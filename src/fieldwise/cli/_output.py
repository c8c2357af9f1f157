"""Printing results: JSON for machines, aligned tables for people."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import click
from pydantic import BaseModel
from rich.console import Console
from rich.table import Table


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def echo_json(value: Any) -> None:
    click.echo(json.dumps(_plain(value), indent=2, sort_keys=True, ensure_ascii=False))


def echo_table(rows: Iterable[BaseModel], columns: Sequence[str], *, title: str = "") -> None:
    """Rows as a table. Ids and other values are never cut with an ellipsis (people copy them):
    the first column never wraps and the others fold onto more lines."""
    table = Table(title=title or None, show_lines=False, header_style="bold")
    for index, column in enumerate(columns):
        table.add_column(column, no_wrap=index == 0, overflow="fold")
    count = 0
    for row in rows:
        data = row.model_dump()
        table.add_row(*("" if data.get(c) is None else str(data.get(c)) for c in columns))
        count += 1
    if count == 0:
        click.echo("(none)")
        return
    console = Console(soft_wrap=True)
    if not console.is_terminal:
        console = Console(soft_wrap=True, width=max(console.width, 160))
    console.print(table)


def echo_record(value: BaseModel, as_json: bool, fields: Sequence[str]) -> None:
    """One resource: JSON, or ``field: value`` lines."""
    if as_json:
        echo_json(value)
        return
    data = value.model_dump()
    width = max(len(f) for f in fields)
    for name in fields:
        shown = data.get(name)
        if isinstance(shown, dict | list):
            shown = json.dumps(shown, ensure_ascii=False)
        click.echo(f"{name.ljust(width)}  {'' if shown is None else shown}")


def echo_rows(rows: Sequence[BaseModel], as_json: bool, columns: Sequence[str]) -> None:
    """A list of resources: JSON, or a table of ``columns``."""
    if as_json:
        echo_json(list(rows))
    else:
        echo_table(rows, columns)
