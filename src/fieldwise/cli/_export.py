"""`fieldwise export`: a run set as one table, one row per document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from fieldwise.cli._context import CliContext, json_option, pass_cli
from fieldwise.cli._loading import RESULTS_DIR_OPTION
from fieldwise.cli._output import echo_json
from fieldwise.compare import EXPORT_FORMATS, export_bytes, export_table, write_export
from fieldwise.evaluate import resolve_specs
from fieldwise.runner import LoadedRunSet, load_runset

__all__ = ["export_cmd"]


@click.command("export")
@click.argument("runset_id", metavar="RUNSET")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(EXPORT_FORMATS),
    default="csv",
    show_default=True,
    help="parquet keeps value types; csv and jsonl are text.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
    help="File to write ('-' for standard output) [default: RUNSET.FORMAT].",
)
@click.option(
    "--dataset",
    "dataset_path",
    type=click.Path(file_okay=False, path_type=Path),
    help="Read field specs from this dataset folder instead of what was recorded with the "
    "evaluation set.",
)
@RESULTS_DIR_OPTION
@json_option
@pass_cli
def export_cmd(
    cli: CliContext,
    runset_id: str,
    fmt: str,
    out: Path | None,
    dataset_path: Path | None,
    results_dir: Path,
    as_json: bool,
) -> None:
    """Export a run set as one table, one row per document.

    Per field: the expected value, and each version's value and outcome (correct, wrong,
    missed, spurious, both_empty); per version, the run's status.
    """
    runset = load_runset(runset_id, results_dir)
    table = export_table(
        {item.item_id: item.ground_truth for item in runset.items},
        _outputs(runset),
        resolve_specs(runset, dataset_path, cli.client).specs,
        labels=_labels(runset),
        files={item.item_id: item.file for item in runset.items},
        statuses={record.pair: record.status for record in runset.records},
    )
    if out == Path("-"):
        click.echo(export_bytes(table, fmt), nl=False)
        return
    target = out or Path(f"{runset_id}.{fmt}")
    write_export(table, fmt, target)
    if as_json:
        echo_json({"schema": 1, "path": str(target), "format": fmt, "documents": len(table)})
        return
    click.echo(f"wrote {len(table)} documents to {target}")


def _outputs(runset: LoadedRunSet) -> dict[str, dict[str, Any]]:
    outputs: dict[str, dict[str, Any]] = {v.version_id: {} for v in runset.manifest.versions}
    for record in runset.records:
        if record.status == "succeeded" and record.output is not None:
            outputs.setdefault(record.version_id, {})[record.item_id] = record.output
    return outputs


def _labels(runset: LoadedRunSet) -> dict[str, str]:
    """Columns are named by the version as asked for ("published") unless two share it."""
    versions = runset.manifest.versions
    labels = [v.label for v in versions]
    unique = len(set(labels)) == len(labels)
    return {v.version_id: v.label if unique else v.version_id for v in versions}
