"""The ``fieldwise`` command line: a thin layer over the library.

``main`` is the one place where errors become messages and exit codes:
0 success (a passing verdict), 1 a failing verdict, 3 an inconclusive verdict (commands
return these), 2 an error, 130 interrupted.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from fieldwise import __version__
from fieldwise._config import client_settings
from fieldwise._errors import FieldwiseError
from fieldwise.cli._context import CliContext, connection_options
from fieldwise.cli._lazy import LazyCommand, LazyGroup

# name -> (module, attribute, one-line help). The help is repeated here so that listing the
# commands imports none of them; tests/cli/test_lazy.py checks it against each command.
_COMMANDS: dict[str, LazyCommand] = {
    name: LazyCommand(f"fieldwise.cli._{module}", attribute, short_help)
    for name, (module, attribute, short_help) in {
        "compare": (
            "analysis",
            "compare_cmd",
            "Compare the versions of one or more run sets field by field and print the tables.",
        ),
        "datasets": (
            "datasets",
            "datasets",
            "Create and check local datasets (documents + ground truth + processor configs).",
        ),
        "evaluate": (
            "evaluate",
            "evaluate_cmd",
            "Evaluate a dataset end to end: sync → run → compare → report → gate (→ publish).",
        ),
        "evaluation-runs": (
            "evaluation_runs",
            "evaluation_runs",
            "Score a processor version on an evaluation set inside the service.",
        ),
        "export": (
            "export",
            "export_cmd",
            "Export a run set as one table, one row per document.",
        ),
        "files": ("files", "files", "Upload, list and delete files."),
        "gate": (
            "analysis",
            "gate_cmd",
            "Decide whether each candidate of a run set may be published.",
        ),
        "plan": (
            "plan",
            "plan_cmd",
            "Per field: the smallest change today's documents detect, "
            "and documents a margin needs.",
        ),
        "processors": ("processors", "processors", "Create, list, show and update processors."),
        "publish": (
            "publish",
            "publish_cmd",
            "Publish a drafted version, only if the run set's verdict for it passed.",
        ),
        "report": (
            "analysis",
            "report_cmd",
            "Render the report of a run set: self-contained HTML, Markdown, JUnit XML, JSON.",
        ),
        "run": ("run", "run", "Run processor versions over every item of an evaluation set."),
        "runsets": ("runsets", "runsets", "List and show the run sets kept on disk."),
        "runs": ("runs", "runs", "Start, inspect, cancel and delete processor runs."),
        "serve": ("serve", "serve", "Run the local Document Processing Service until interrupted."),
        "sync": ("sync", "sync", "Make an evaluation set mirror the local DATASET folder."),
        "train": (
            "train",
            "train_cmd",
            "Train a drafted processor version on a split of DATASET and print it.",
        ),
        "versions": ("processors", "versions", "Create, list and publish processor versions."),
        "webhooks": (
            "webhooks",
            "webhooks",
            "Receive webhooks, manage endpoints, and inspect or retry deliveries.",
        ),
        "worker": (
            "worker",
            "worker",
            "Run processor, parse, workflow and evaluation jobs until interrupted.",
        ),
        "workflows": (
            "workflows",
            "workflows",
            "Create workflows, run them on files or batches, label and delete their runs.",
        ),
    }.items()
}


@click.group(
    cls=LazyGroup,
    lazy=_COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="fieldwise")
@connection_options
@click.pass_context
def cli(
    ctx: click.Context, base_url: str | None, api_key: str | None, data_dir: Path | None
) -> None:
    """fieldwise: is the drafted processor version better than the published one, field by
    field, and may it be published?

    Every command talks to the Document Processing Service over HTTP: the one at --base-url,
    or an embedded local service started on demand.
    """
    flags = {"base_url": base_url, "api_key": api_key, "data_dir": data_dir}
    state = CliContext(
        client_settings(base_url=base_url, api_key=api_key),
        data_dir=data_dir,
        flags={k: v for k, v in flags.items() if v is not None},
    )
    ctx.obj = state
    ctx.call_on_close(state.close)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script; exits with the code of the outcome."""
    try:
        code = cli.main(args=argv, prog_name="fieldwise", standalone_mode=False)
    except FieldwiseError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(2 if exc.exit_code == 1 else exc.exit_code)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


__all__ = ["cli", "main"]
