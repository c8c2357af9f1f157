"""``fieldwise plan``: the minimum detectable effect per field, and the documents a margin needs."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import click

from fieldwise.cli._context import json_option
from fieldwise.cli._loading import RESULTS_DIR_OPTION
from fieldwise.cli._output import echo_json
from fieldwise.evaluate import plan_dataset
from fieldwise.runner import load_runset


@click.command("plan")
@click.argument("dataset", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--margin",
    type=float,
    default=0.02,
    show_default=True,
    help="The change to detect, as a share (0.02 = 2 points).",
)
@click.option(
    "--runset",
    "runset_id",
    metavar="RUNSET",
    help="Use each field's discordance observed in this run set (baseline vs first candidate).",
)
@click.option(
    "--discordance",
    type=float,
    default=0.1,
    show_default=True,
    help="Share of documents whose outcome differs between versions, assumed for fields "
    "without an observed one.",
)
@RESULTS_DIR_OPTION
@json_option
def plan_cmd(
    dataset: Path,
    margin: float,
    runset_id: str | None,
    discordance: float,
    results_dir: Path,
    as_json: bool,
) -> None:
    """Per field: the smallest change today's documents detect, and documents a margin needs.

    The minimum detectable effect (MDE) and the documents needed to detect --margin come from
    the paired McNemar test at the dataset's alpha and 80% power (Connor 1987). The MDE is the
    smallest change in field accuracy the gate would find significant 80% of the time; "no
    significant change" on a field says nothing about changes below it.
    """
    runset = load_runset(runset_id, results_dir) if runset_id is not None else None
    plan = plan_dataset(dataset, margin=margin, runset=runset, discordance=discordance)
    if as_json:
        echo_json(dataclasses.asdict(plan))
        return
    click.echo(
        f"{plan.dataset}: margin {plan.margin * 100:g} pp, alpha {plan.alpha:g}, "
        f"power {plan.power:.0%}"
        + (f", discordance from run set {plan.runset_id}" if plan.runset_id else "")
    )
    header = ["field", "documents", "discordance", "MDE now", "documents for margin"]
    rows = [
        [
            r.field,
            str(r.documents),
            f"{r.discordance:.3f}" + ("" if r.observed else " (assumed)"),
            "not detectable" if r.mde is None else f"±{r.mde * 100:.1f} pp",
            "-" if r.needed is None else str(r.needed),
        ]
        for r in plan.rows
    ]
    widths = [max(len(x[i]) for x in [header, *rows]) for i in range(len(header))]
    for line in [header, ["-" * w for w in widths], *rows]:
        click.echo(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(line, widths, strict=True))
            ).rstrip()
        )
