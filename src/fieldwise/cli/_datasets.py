"""`fieldwise datasets`: generate sample datasets, scaffold and validate dataset folders."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from fieldwise.cli._context import json_option
from fieldwise.cli._output import echo_json
from fieldwise.datasets import Dataset, ground_truth_hash, init_dataset, load_dataset

if TYPE_CHECKING:
    from fieldwise.datasets.generate import Kind

__all__ = ["datasets"]

_KINDS = ("invoices", "receipts")


@click.group("datasets")
def datasets() -> None:
    """Create and check local datasets (documents + ground truth + processor configs)."""


@datasets.command("generate")
@click.argument("kind", type=click.Choice(_KINDS))
@click.option(
    "--count",
    type=click.IntRange(min=1),
    default=60,
    show_default=True,
    help="Number of documents.",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Random seed; the same seed gives byte-identical files.",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Folder to write the dataset to.",
)
@click.option(
    "--scanned-share",
    type=click.FloatRange(0.0, 1.0),
    default=0.15,
    show_default=True,
    help="Share of documents rendered as scans without a text layer.",
)
@click.option("--force", is_flag=True, help="Overwrite the generated files in a non-empty folder.")
def generate(
    kind: str, count: int, seed: int, out_dir: Path, scanned_share: float, force: bool
) -> None:  # fmt: skip
    """Write a synthetic KIND dataset (invoices or receipts) with exact ground truth."""
    # Imported here: reportlab and pdfium load only when generating.
    from fieldwise.datasets.generate import generate_dataset

    columns = (TextColumn("generating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("generate", total=count)
        result = generate_dataset(
            cast("Kind", kind),  # click.Choice already checked it
            count,
            seed,
            out_dir,
            scanned_share=scanned_share,
            force=force,
            on_document=lambda _document: progress.advance(task),
        )
    scanned = sum(document.scanned for document in result.documents)
    multi_page = sum(document.pages > 1 for document in result.documents)
    layouts = len({document.layout for document in result.documents})
    click.echo(
        f"wrote {len(result.documents)} {kind} to {out_dir} ({layouts} layouts, {scanned} scanned, "
        f"{multi_page} multi-page, {result.total_bytes / 1e6:.1f} MB)"
    )


@datasets.command("validate")
@click.argument("dataset", type=click.Path(path_type=Path))
@json_option
def validate(dataset: Path, as_json: bool) -> None:
    """Check a dataset folder; list every problem with file and line (exit 2 on problems)."""
    loaded = load_dataset(dataset)
    if as_json:
        from fieldwise.cli._shapes import dataset_json

        echo_json(dataset_json(loaded, ground_truth_hash(loaded)))
        return
    click.echo(_summary(loaded))
    for warning in loaded.warnings:
        click.echo(f"warning: {warning}")
    click.echo("ok")


@datasets.command("init")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option(
    "--labels",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Ground truth: .jsonl, .csv, .parquet or a Label Studio .json export (copied into "
    "FOLDER when outside it) [default: FOLDER's ground_truth.* files].",
)
@click.option("--force", is_flag=True, help="Overwrite an existing dataset.toml.")
def init(folder: Path, labels: Path | None, force: bool) -> None:
    """Write FOLDER/dataset.toml for its documents and labels, guessing each field's type
    (date, currency, number, boolean, enum, text, string) from the values."""
    result = init_dataset(folder, labels, force=force)
    copied = " (copied into the folder)" if result.copied else ""
    click.echo(f"wrote {result.spec_path} from {result.labels}{copied}")
    click.echo(_summary(result.dataset))
    for warning in result.dataset.warnings:
        click.echo(f"warning: {warning}")
    click.echo("check the guessed types, then run: fieldwise datasets validate " + str(folder))


def _summary(dataset: Dataset) -> str:
    lines = [
        f"dataset {dataset.name}: {len(dataset.items)} items, {len(dataset.fields)} fields",
        f"ground truth hash: {ground_truth_hash(dataset)}",
    ]
    if dataset.processor is not None:
        versions = ", ".join(f"{v.key}={v.file}" for v in dataset.processor.versions) or "none"
        lines.append(f"processor {dataset.processor.name} (versions: {versions})")
    if dataset.splits:
        sizes = ", ".join(f"{name} {size}" for name, size in dataset.split_sizes().items())
        lines.append(f"splits: {sizes}")
    for name, spec in dataset.fields.items():
        present = sum(_has(item.ground_truth, name) for item in dataset.items)
        critical = " critical" if spec.get("critical") else ""
        lines.append(f"  {name:<24} {spec.get('type', '?'):<9}{critical:<9} {present} items")
        for column, column_spec in (spec.get("columns") or {}).items():
            lines.append(f"    [].{column:<20} {column_spec.get('type', '?')}")
    return "\n".join(lines)


def _has(truth: Any, dotted: str) -> bool:
    for part in dotted.split("."):
        if not isinstance(truth, dict) or part not in truth:
            return False
        truth = truth[part]
    return True
