"""``fieldwise processors`` and ``fieldwise versions``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from fieldwise._errors import ConfigError
from fieldwise.cli._context import CliContext, json_option, pass_cli
from fieldwise.cli._output import echo_record, echo_rows
from fieldwise.client import ops

_PROCESSOR_FIELDS = (
    "id",
    "name",
    "type",
    "description",
    "confidence_threshold",
    "default_version_id",
    "created_at",
    "updated_at",
)
_VERSION_FIELDS = (
    "id",
    "processor_id",
    "number",
    "status",
    "description",
    "published_at",
    "created_at",
)


@click.group()
def processors() -> None:
    """Create, list, show and update processors."""


@processors.command("create")
@click.argument("name")
@click.option("--description", default="", help="Free text.")
@json_option
@pass_cli
def processors_create(cli: CliContext, name: str, description: str, as_json: bool) -> None:
    """Create an extraction processor called NAME (its id is a slug of the name)."""
    echo_record(
        cli.client().create_processor(name, description=description), as_json, _PROCESSOR_FIELDS
    )


@processors.command("list")
@json_option
@pass_cli
def processors_list(cli: CliContext, as_json: bool) -> None:
    """List processors."""
    rows = list(cli.client().list_processors())
    echo_rows(rows, as_json, ("id", "name", "default_version_id", "confidence_threshold"))


@processors.command("show")
@click.argument("processor_id")
@json_option
@pass_cli
def processors_show(cli: CliContext, processor_id: str, as_json: bool) -> None:
    """Show one processor."""
    echo_record(cli.client().get_processor(processor_id), as_json, _PROCESSOR_FIELDS)


@processors.command("update")
@click.argument("processor_id")
@click.option("--description", help="New description.")
@click.option(
    "--confidence-threshold",
    type=click.FloatRange(0, 1),
    help="Fields below this confidence are flagged needs_review (0-1).",
)
@json_option
@pass_cli
def processors_update(
    cli: CliContext,
    processor_id: str,
    description: str | None,
    confidence_threshold: float | None,
    as_json: bool,
) -> None:
    """Update a processor's description or confidence threshold."""
    if description is None and confidence_threshold is None:
        raise click.UsageError("nothing to update: give --description or --confidence-threshold")
    op = ops.update_processor(
        processor_id, description=description, confidence_threshold=confidence_threshold
    )
    echo_record(cli.client().call(op), as_json, _PROCESSOR_FIELDS)


def read_config(path: Path) -> dict[str, Any]:
    """A version config from a JSON file, with a clear error naming the file and line."""
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}:{exc.lineno}: invalid JSON ({exc.msg})") from None
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: a version config must be a JSON object")
    return value


@click.group()
def versions() -> None:
    """Create, list and publish processor versions."""


@versions.command("create")
@click.argument("processor_id")
@click.option(
    "--config",
    "config_path",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="JSON file with the version's extraction config.",
)
@click.option("--description", default="", help="Free text.")
@click.option("--publish", is_flag=True, help="Publish the new version right away.")
@json_option
@pass_cli
def versions_create(
    cli: CliContext,
    processor_id: str,
    config_path: Path,
    description: str,
    publish: bool,
    as_json: bool,
) -> None:
    """Create a drafted version of PROCESSOR_ID from a config file."""
    client = cli.client()
    version = client.create_version(processor_id, read_config(config_path), description=description)
    if publish:
        version = client.publish_version(processor_id, version.id)
    echo_record(version, as_json, _VERSION_FIELDS)


@versions.command("list")
@click.argument("processor_id")
@json_option
@pass_cli
def versions_list(cli: CliContext, processor_id: str, as_json: bool) -> None:
    """List the versions of PROCESSOR_ID."""
    rows = list(cli.client().list_versions(processor_id))
    echo_rows(rows, as_json, ("id", "number", "status", "description", "published_at"))


@versions.command("publish")
@click.argument("processor_id")
@click.argument("version_id")
@json_option
@pass_cli
def versions_publish(cli: CliContext, processor_id: str, version_id: str, as_json: bool) -> None:
    """Publish a drafted version: new runs of the processor use it by default."""
    echo_record(cli.client().publish_version(processor_id, version_id), as_json, _VERSION_FIELDS)
