"""Progress of the run step on standard error (#39 item 5): a bar on a terminal, occasional
plain lines elsewhere (a CI log), nothing with --quiet or --json."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from fieldwise.cli._progress import RunDisplay
from fieldwise.datasets.generate import generate_dataset
from fieldwise.runner import Progress
from fieldwise.service import RunningService
from tests.cli_main import run_main


def test_evaluate_prints_counts_to_a_log(service: RunningService, tmp_path: Path) -> None:
    folder = tmp_path / "invoices"
    generate_dataset("invoices", count=8, seed=5, out_dir=folder, scanned_share=0.0)
    remote = ["--base-url", service.base_url, "--api-key", service.api_key]

    result = run_main(*remote, "evaluate", str(folder))  # stderr is not a terminal here
    assert result.exit_code in (0, 1, 3), result.stderr
    assert "running: 0/16 pairs (0 failed, 0 cached)" in result.stderr
    assert "running: 16/16 pairs" in result.stderr
    assert "\x1b[" not in result.stderr  # no bar redraws in a log
    assert "running:" not in result.stdout

    for quiet in (["--quiet"], ["--json"]):
        result = run_main(*remote, "evaluate", str(folder), *quiet)
        assert result.exit_code in (0, 1, 3), result.stderr
        assert "running:" not in result.stderr


def _progress(done: int) -> Progress:
    return Progress(total=100, done=done, succeeded=done, failed=0, cached=0)


def test_a_log_gets_a_line_every_interval_with_time_left() -> None:
    now = [0.0]
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=200)
    with RunDisplay(enabled=True, console=console, every=10, clock=lambda: now[0]) as display:
        display.update(_progress(0))
        for done in range(1, 51):  # one pair a second
            now[0] += 1
            display.update(_progress(done))
    lines = out.getvalue().splitlines()
    assert lines[0] == "running: 0/100 pairs (0 failed, 0 cached)"
    assert lines[1] == "running: 10/100 pairs (0 failed, 0 cached), about 1m 30s left"
    assert len(lines) == 6  # at 0, 10, 20, 30, 40 and 50 s: not one line per pair
    assert lines[-1].startswith("running: 50/100 pairs")


def test_a_terminal_gets_a_bar_with_counts_and_time_left() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120)
    with RunDisplay(enabled=True, console=console) as display:
        display.update(_progress(0))
        display.update(_progress(40))
        display._bar.refresh()  # type: ignore[union-attr]
    shown = out.getvalue()
    assert "40/100" in shown
    assert "running:" not in shown  # the bar, not the log lines
