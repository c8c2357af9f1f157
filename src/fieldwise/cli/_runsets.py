"""``fieldwise runsets list`` and ``runsets show``: the run sets kept on disk (no service)."""

from __future__ import annotations

from pathlib import Path

import click

from fieldwise.cli._context import json_option
from fieldwise.cli._import import import_cmd
from fieldwise.cli._loading import RESULTS_DIR_OPTION
from fieldwise.cli._output import echo_json
from fieldwise.cli._shapes import runset_json
from fieldwise.runner import list_runsets, load_runset, merge_runsets

__all__ = ["runsets"]


def _versions(row: dict[str, object]) -> str:
    versions = row["versions"]
    assert isinstance(versions, list)
    return ", ".join(str(v["requested"]) for v in versions)


@click.group("runsets")
def runsets() -> None:
    """List and show the run sets kept on disk."""


runsets.add_command(import_cmd)


@runsets.command("list")
@RESULTS_DIR_OPTION
@json_option
def list_cmd(results_dir: Path, as_json: bool) -> None:
    """Every run set under --results-dir, newest first."""
    rows = [runset_json(r) for r in list_runsets(results_dir)]
    if as_json:
        echo_json(rows)
        return
    if not rows:
        click.echo(f"(no run sets in {results_dir})")
        return
    header = ["runset", "created", "dataset", "versions", "items", "pairs recorded"]
    table = [
        [
            str(r["runset_id"]),
            str(r["created_at"]),
            str(r["dataset"] or r["eval_set_name"]),
            _versions(r),
            str(r["items"]),
            f"{r['recorded']}/{r['pairs']}",
        ]
        for r in rows
    ]
    widths = [max(len(line[i]) for line in [header, *table]) for i in range(len(header))]
    for line in [header, ["-" * w for w in widths], *table]:
        click.echo("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip())


@runsets.command("show")
@click.argument("runset_id", metavar="RUNSET")
@RESULTS_DIR_OPTION
@json_option
def show_cmd(runset_id: str, results_dir: Path, as_json: bool) -> None:
    """One run set: what was run, against which evaluation set, and how far it got."""
    row = runset_json(load_runset(runset_id, results_dir))
    if as_json:
        echo_json(row)
        return
    versions, statuses = row["versions"], row["statuses"]
    assert isinstance(versions, list)
    assert isinstance(statuses, dict)
    shown = [
        ("runset", row["runset_id"]),
        ("created", row["created_at"]),
        ("dataset", row["dataset"]),
        ("evaluation set", f"{row['eval_set_name']} ({row['eval_set_id']})"),
        ("processor", row["processor_id"]),
        ("ground truth", row["ground_truth_hash"]),
        *(
            ("version", f"{v['requested']} ({v['version_id']})")
            if v["requested"] != v["version_id"]
            else ("version", v["version_id"])
            for v in versions
        ),
        ("pairs", f"{row['recorded']}/{row['pairs']} recorded ({row['items']} items)"),
        ("statuses", ", ".join(f"{k} {n}" for k, n in statuses.items())),
        ("directory", row["directory"]),
    ]
    width = max(len(k) for k, _ in shown)
    for key, value in shown:
        click.echo(f"{key.ljust(width)}  {'' if value is None else value}")


@runsets.command("merge")
@click.argument("runset_ids", metavar="RUNSET...", nargs=-1, required=True)
@RESULTS_DIR_OPTION
@json_option
def merge_cmd(runset_ids: tuple[str, ...], results_dir: Path, as_json: bool) -> None:
    """Join the run sets of shards 1/N..N/N (from `fieldwise run --shard`) into one.

    Refused unless they are every shard of one run exactly once, complete, with no item in
    two of them."""
    merged = merge_runsets(list(runset_ids), results_dir)
    if as_json:
        echo_json(runset_json(merged))
        return
    click.echo(
        f"run set {merged.manifest.runset_id}: {merged.manifest.item_count} items, "
        f"{len(merged.records)} pairs from {len(runset_ids)} shards"
    )
