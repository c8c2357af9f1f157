"""``fieldwise files``."""

from __future__ import annotations

import json
from pathlib import Path

import click

from fieldwise.cli._context import CliContext, json_option, pass_cli
from fieldwise.cli._output import echo_record, echo_rows
from fieldwise.client import ops

_FILE_FIELDS = ("id", "filename", "content_type", "size", "sha256", "metadata", "created_at")


@click.group()
def files() -> None:
    """Upload, list and delete files."""


@files.command("upload")
@click.argument(
    "paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option("--metadata", help="A JSON object stored with each file.")
@json_option
@pass_cli
def files_upload(
    cli: CliContext, paths: tuple[Path, ...], metadata: str | None, as_json: bool
) -> None:
    """Upload one or more files."""
    meta = None
    if metadata is not None:
        try:
            meta = json.loads(metadata)
        except json.JSONDecodeError as exc:
            raise click.BadParameter(f"not JSON ({exc.msg})", param_hint="--metadata") from None
        if not isinstance(meta, dict):
            raise click.BadParameter("must be a JSON object", param_hint="--metadata")
    client = cli.client()
    uploaded = []
    for path in paths:
        with path.open("rb") as handle:
            uploaded.append(client.upload_file(handle, filename=path.name, metadata=meta))
    echo_rows(uploaded, as_json, ("id", "filename", "size", "content_type"))


@files.command("list")
@json_option
@pass_cli
def files_list(cli: CliContext, as_json: bool) -> None:
    """List uploaded files."""
    rows = list(cli.client().list_files())
    echo_rows(rows, as_json, ("id", "filename", "size", "content_type", "created_at"))


@files.command("show")
@click.argument("file_id")
@json_option
@pass_cli
def files_show(cli: CliContext, file_id: str, as_json: bool) -> None:
    """Show one file."""
    echo_record(cli.client().call(ops.get_file(file_id)), as_json, _FILE_FIELDS)


@files.command("delete")
@click.argument("file_ids", nargs=-1, required=True)
@pass_cli
def files_delete(cli: CliContext, file_ids: tuple[str, ...]) -> None:
    """Permanently delete files and every output derived from them."""
    client = cli.client()
    for file_id in file_ids:
        client.delete_file(file_id)
        click.echo(f"deleted {file_id}")
