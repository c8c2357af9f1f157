"""Sharded runs against the real local service: three shards, run on their own and merged,
give exactly the cells of one unsharded run — no duplicate, no gap — and each shard resumes
on its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fieldwise._errors import RunnerError
from fieldwise.cli import cli, main
from fieldwise.runner import load_results, load_runset, merge_runsets, run_versions
from tests.runner.conftest import MakeWorld, World

RESULTS = Path(".fieldwise/results")


def _run(world: World, *args: str) -> dict[str, object]:
    base = ["--base-url", world.service.base_url, "--api-key", world.service.api_key]
    command = ["run", "--eval-set", "texts", "--processor", world.processor_id]
    command += ["--version", world.v1, "--version", world.v2, "--quiet", "--json", *args]
    result = CliRunner().invoke(cli, [*base, *command])
    assert result.exit_code == 0, result.output
    shown: dict[str, object] = json.loads(result.stdout)
    return shown


def _cells(runset_id: str) -> list[tuple[str, str, str, str]]:
    frame = load_results(runset_id)
    return sorted(
        (r.item_id, r.version_id, r.status, json.dumps(r.value, sort_keys=True))
        for r in frame.itertuples()
    )


def test_three_shards_merge_into_the_unsharded_run(make_world: MakeWorld) -> None:
    world = make_world(12)
    whole = _run(world, "--no-cache")
    shards = [_run(world, "--shard", f"{i}/3", "--no-cache") for i in (1, 2, 3)]
    sizes = [load_runset(str(s["runset_id"])).manifest.item_count for s in shards]
    assert sum(sizes) == 12
    assert all(size < 12 for size in sizes)  # each shard ran a part, not everything

    result = CliRunner().invoke(
        cli, ["runsets", "merge", *(str(s["runset_id"]) for s in shards), "--json"]
    )
    assert result.exit_code == 0, result.output
    merged = json.loads(result.stdout)
    cells = _cells(str(merged["runset_id"]))
    assert cells == _cells(str(whole["runset_id"]))
    assert len(cells) == len({(c[0], c[1]) for c in cells}) == 24  # no duplicate pair
    manifest = load_runset(str(merged["runset_id"])).manifest
    assert manifest.item_count == 12
    assert manifest.provenance == load_runset(str(whole["runset_id"])).manifest.provenance

    # the same shards twice, or one missing, are refused with the reason
    ids = [str(s["runset_id"]) for s in shards]
    with pytest.raises(RunnerError, match="shard 1/3 is given twice"):
        merge_runsets([ids[0], ids[0], ids[1]], RESULTS)
    with pytest.raises(RunnerError, match=r"shard\(s\) 3/3 missing"):
        merge_runsets(ids[:2], RESULTS)
    with pytest.raises(RunnerError, match="is not a shard"):
        merge_runsets([*ids, str(whole["runset_id"])], RESULTS)


def test_each_shard_resumes_on_its_own(make_world: MakeWorld) -> None:
    world = make_world(9)
    first = _run(world, "--shard", "2/3")
    # running the same shard again finds it complete and starts a new one; another shard is
    # its own run set
    other = _run(world, "--shard", "3/3")
    assert other["runset_id"] != first["runset_id"]
    loaded = load_runset(str(first["runset_id"]))
    assert loaded.manifest.arguments["shard"] == "2/3"
    # a torn shard: drop its last records, then the same command resumes exactly that shard
    records = loaded.directory / "records.jsonl"
    lines = records.read_text().splitlines()
    records.write_text("\n".join(lines[:-2]) + "\n")
    resumed = run_versions(
        world.connection(),
        eval_set="texts",
        processor_id=world.processor_id,
        versions=[world.v1, world.v2],
        shard=(2, 3),
    )
    assert resumed.runset_id == first["runset_id"]
    assert resumed.resumed == len(lines) - 2
    assert resumed.done == resumed.total == loaded.manifest.pair_count


def test_a_bad_shard_is_one_line_and_exit_2(
    make_world: MakeWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    world = make_world(2)
    base = ["--base-url", world.service.base_url, "--api-key", world.service.api_key]
    command = [*base, "run", "--eval-set", "texts", "--processor", world.processor_id]
    for bad in ("4/3", "x", "0/2"):
        with pytest.raises(SystemExit) as exited:
            main([*command, "--version", world.v1, "--shard", bad])
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert f"--shard {bad!r}" in err
        assert len(err.strip().splitlines()) == 1
