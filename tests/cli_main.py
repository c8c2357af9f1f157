"""Run the ``fieldwise`` entry point under CliRunner's isolation, as a user's shell would.

``CliRunner.invoke(cli, ...)`` stops at the command and hands back the exception; the exit
codes and one-line messages users see come from :func:`fieldwise.cli.main`, the one error site.
"""

from __future__ import annotations

from dataclasses import dataclass

from click.testing import CliRunner

from fieldwise.cli import main


@dataclass(frozen=True)
class MainResult:
    """Exit code and the decoded standard output and error of one ``fieldwise`` invocation."""

    exit_code: int
    stdout: str
    stderr: str


def run_main(*args: str) -> MainResult:
    """``fieldwise ARGS`` in-process: the exit code main() chose, and what it printed."""
    with CliRunner().isolation() as (out, err, _):
        try:
            main(list(args))
            code = 0
        except SystemExit as exited:
            code = exited.code if isinstance(exited.code, int) else 1
        return MainResult(code, out.getvalue().decode(), err.getvalue().decode())
