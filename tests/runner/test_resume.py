"""Interrupted run sets resume with exactly the missing pairs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from fieldwise.cli import cli
from fieldwise.client import ops
from fieldwise.runner import load_results, load_runset, run_versions
from tests.runner.conftest import MakeWorld, World

SLOW = {"engine": "python", "entrypoint": "tests.runner.engines:slow"}
SLOWER = {"engine": "python", "entrypoint": "tests.runner.engines:slower"}
RESULTS = Path(".fieldwise/results")


def _cli_args(world: World, *extra: str) -> list[str]:
    return ["--base-url", world.service.base_url, "--api-key", world.service.api_key, *extra]


def _record_lines(directory: Path) -> int:
    return sum(1 for line in (directory / "records.jsonl").read_text().splitlines() if line)


def test_killed_runner_resumes_exactly_the_missing_pairs(make_world: MakeWorld) -> None:
    world = make_world(8, v1=SLOW, v2={**SLOW, "description": "v2"}, allow_python_engines=True)
    command = ["run", "--eval-set", "texts", "--processor", world.processor_id]
    command += ["--version", world.v1, "--version", world.v2, "--concurrency", "2", "--quiet"]
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from fieldwise.cli import main; main()",
            *_cli_args(world, *command),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            dirs = list(RESULTS.glob("rs_*")) if RESULTS.exists() else []
            if dirs and (dirs[0] / "records.jsonl").exists() and _record_lines(dirs[0]) >= 4:
                break
            assert process.poll() is None, process.communicate()
            time.sleep(0.02)
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.communicate(timeout=30)  # reaps it and closes the pipes
    (directory,) = RESULTS.glob("rs_*")
    saved = _record_lines(directory)
    assert 4 <= saved < 16
    world.log.clear()

    # The same command again (no --resume) finds the incomplete run set and finishes it.
    outcome = CliRunner().invoke(cli, _cli_args(world, *command, "--json"))
    assert outcome.exit_code == 0, outcome.output
    summary = json.loads(outcome.stdout)
    assert summary["runset_id"] == directory.name
    assert (summary["done"], summary["resumed"]) == (16, saved)
    assert summary["new_runs"] == 16 - saved == world.run_creates()

    frame = load_results(directory.name)
    assert len(frame) == 16
    assert (frame.status == "succeeded").all()
    assert frame.groupby(["item_id", "version_id"]).size().eq(1).all()


def test_resume_by_id_skips_finished_pairs_and_ignores_a_torn_line(make_world: MakeWorld) -> None:
    world = make_world(3)
    versions = [world.v1, world.v2]
    first = run_versions(
        world.connection(), eval_set="texts", processor_id=world.processor_id, versions=versions
    )
    records = first.directory / "records.jsonl"
    lines = records.read_text().splitlines()
    # As if the process died while writing its third record.
    records.write_text("\n".join(lines[:2]) + "\n" + lines[2][:25])
    assert len(load_runset(first.runset_id).records) == 2
    world.log.clear()

    outcome = CliRunner().invoke(
        cli, _cli_args(world, "run", "--resume", first.runset_id, "--no-cache", "--json")
    )
    assert outcome.exit_code == 0, outcome.output
    summary = json.loads(outcome.stdout)
    assert (summary["runset_id"], summary["resumed"], summary["done"]) == (first.runset_id, 2, 6)
    assert world.run_creates() == 4
    frame = load_results(first.runset_id)
    assert len(frame) == 6
    assert frame.value.notna().all()


def test_resume_of_a_complete_run_set_runs_nothing(make_world: MakeWorld) -> None:
    world = make_world(2)
    first = run_versions(
        world.connection(),
        eval_set="texts",
        processor_id=world.processor_id,
        versions=["published"],
    )
    world.log.clear()
    again = run_versions(world.connection(), resume=first.runset_id)
    assert (again.done, again.resumed, again.new_runs) == (2, 2, 0)
    assert world.run_creates() == 0


def test_ctrl_c_stops_cleanly_cancels_in_flight_runs_and_says_how_to_resume(
    make_world: MakeWorld,
) -> None:
    world = make_world(4, v1=SLOWER, v2={**SLOWER, "description": "v2"}, allow_python_engines=True)
    command = ["run", "--eval-set", "texts", "--processor", world.processor_id]
    command += ["--version", world.v1, "--version", world.v2, "--concurrency", "2", "--quiet"]
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from fieldwise.cli import main; main()",
            *_cli_args(world, *command),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            dirs = list(RESULTS.glob("rs_*")) if RESULTS.exists() else []
            if dirs and (dirs[0] / "records.jsonl").exists() and _record_lines(dirs[0]) >= 1:
                break
            assert process.poll() is None, process.communicate()
            time.sleep(0.02)
        time.sleep(0.4)  # the next runs are now half-way through on the server
        process.send_signal(signal.SIGINT)
    finally:
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    (directory,) = RESULTS.glob("rs_*")
    assert f"resume with: fieldwise run --resume {directory.name}" in stderr
    loaded = load_runset(directory.name)
    assert 1 <= len(loaded.records) < 8
    with world.connection().client() as client:
        runs = list(client.paginate(lambda c: ops.list_runs(world.processor_id, cursor=c)))
    assert any(r.status == "canceled" for r in runs), (stderr, [r.status for r in runs])
    assert len(runs) - sum(r.status == "canceled" for r in runs) >= len(loaded.records)
