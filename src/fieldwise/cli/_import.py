"""``fieldwise runsets import``: predictions made elsewhere as a run set (no service)."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import click

from fieldwise.cli._context import CliContext, json_option, pass_cli
from fieldwise.cli._loading import RESULTS_DIR_OPTION
from fieldwise.cli._output import echo_json
from fieldwise.cli._shapes import runset_json
from fieldwise.imports import (
    FORMATS,
    ImportedSummary,
    Source,
    dataset_target,
    eval_set_target,
    import_predictions,
)

__all__ = ["import_cmd"]

_SHOWN = 10  # names listed per problem before "and N more"


def _versions(
    _ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]
) -> list[tuple[str, str]]:
    pairs = []
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not name.strip() or not path.strip():
            raise click.BadParameter(
                f"{value!r} is not NAME=PATH (e.g. azure=out/azure/)", param_hint="--version"
            )
        pairs.append((name.strip(), path.strip()))
    return pairs


def _listed(label: str, names: list[str]) -> str:
    more = f" (and {len(names) - _SHOWN} more)" if len(names) > _SHOWN else ""
    return f"  {label} ({len(names)}): {', '.join(names[:_SHOWN])}{more}"


def _echo_summary(summary: ImportedSummary, total: int) -> None:
    click.echo(
        f"{summary.name} ({summary.version_id}): {summary.format}, "
        f"{summary.documents}/{total} documents, sha256 {summary.sha256[:12]}"
    )
    if summary.missing:
        click.echo(_listed("no prediction, counted as missed", list(summary.missing)))
    if summary.unknown:
        click.echo(_listed("not in the dataset, not imported", list(summary.unknown)))
    if summary.unmapped:
        names = [f"{name} ({n} documents)" for name, n in summary.unmapped]
        click.echo(_listed("unmapped fields, not imported", names))
    if summary.notes:
        click.echo(_listed("choices", list(summary.notes)))


@click.command("import")
@click.argument("target", metavar="DATASET_OR_EVALSET")
@click.option(
    "--version",
    "versions",
    metavar="NAME=PATH",
    multiple=True,
    required=True,
    callback=_versions,
    help="A version's predictions: a file or a folder (one response per document); repeat.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", *FORMATS]),
    default="auto",
    show_default=True,
    help="The format of every PATH [auto: detected from the content].",
)
@RESULTS_DIR_OPTION
@json_option
@pass_cli
def import_cmd(
    cli: CliContext,
    target: str,
    versions: list[tuple[str, str]],
    fmt: str,
    results_dir: Path,
    as_json: bool,
) -> None:
    """Make a run set from predictions produced elsewhere, one version per --version.

    DATASET_OR_EVALSET is a local dataset folder (its documents and ground truth are the run
    set's items), else an evaluation set's id or name on the service (its items as a run
    snapshots them; only the default mappings apply). PATH is JSON Lines, CSV or Parquet (a
    `file` column or key and one per field), a folder of one JSON per document, or Azure
    Document Intelligence, Google Document AI or AWS Textract AnalyzeExpense responses (one
    file, or a folder of one per document named after it), their field names mapped onto the
    dataset's ([import.<vendor>] in dataset.toml overrides the defaults). Missing and unknown
    documents and unmapped fields are listed and recorded in the run set's provenance. Then
    `fieldwise compare RUNSET` (or `compare RUNSET OTHER_RUNSET`), `report` and `gate` read
    it like any run set.
    """
    folder = Path(target)
    # a name with a path separator, or anything on disk, is meant as a folder: a mistyped
    # path is "dataset not found", never a lookup on the service
    local = folder.exists() or "/" in target or os.sep in target
    chosen = dataset_target(folder) if local else eval_set_target(cli.connection(), target)
    result = import_predictions(
        chosen,
        [Source(name, path, fmt) for name, path in versions],
        results_dir=results_dir,
        now=datetime.now(UTC),
    )
    if as_json:
        echo_json(
            {**runset_json(result.runset), "imported": [s.to_json() for s in result.versions]}
        )
        return
    manifest = result.runset.manifest
    click.echo(
        f"run set {manifest.runset_id}: {len(result.versions)} imported version(s) over "
        f"{manifest.item_count} documents of {manifest.eval_set_name}"
    )
    for summary in result.versions:
        _echo_summary(summary, manifest.item_count)
