"""``fieldwise run`` through click: output, JSON, usage errors, exit codes."""

from __future__ import annotations

import importlib
import json

import pytest
from click.testing import CliRunner

from fieldwise.cli import cli, main
from tests.runner.conftest import MakeWorld, World


def _invoke(world: World, *args: str) -> tuple[int, str, str]:
    base = ["--base-url", world.service.base_url, "--api-key", world.service.api_key]
    result = CliRunner().invoke(cli, [*base, "run", *args])
    return result.exit_code, result.stdout, result.stderr


def test_run_prints_a_summary_and_json_with_aliases(make_world: MakeWorld) -> None:
    world = make_world(2)
    code, out, _ = _invoke(
        world, "--eval-set", "texts", "--processor", world.processor_id,
        "--version", "published", "--version", world.v1,
    )  # fmt: skip
    assert code == 0, out
    assert "4/4 pairs: 4 succeeded, 0 failed, 0 cached" in out
    # names first (what was typed and vN), ids as detail
    assert f"x published = v2 ({world.v2}), v1 ({world.v1}) on" in out

    code, out, _ = _invoke(
        world, "--eval-set", world.eval_set_id, "--processor", world.processor_id,
        "--version", "published", "--version", world.v1, "--json", "--quiet",
    )  # fmt: skip
    assert code == 0, out
    summary = json.loads(out)
    # each version carries the hash of its config (the comparability contract)
    hashes = [v.pop("config_hash") for v in summary["versions"]]
    assert all(len(h) == 64 for h in hashes)
    assert summary["versions"] == [
        {
            "alias": "published",
            "requested": "published",
            "version_id": world.v2,
            "number": 2,
            "name": "v2",
            "aliases": ["published"],
        },
        {
            "alias": None,
            "requested": world.v1,
            "version_id": world.v1,
            "number": 1,
            "name": "v1",
            "aliases": ["latest-draft"],
        },  # v1 is the only draft
    ]
    assert (summary["done"], summary["cached"], summary["new_runs"]) == (4, 4, 0)
    assert summary["complete"] is True


def _main(capsys: pytest.CaptureFixture[str], world: World, *args: str) -> tuple[int, str]:
    base = ["--base-url", world.service.base_url, "--api-key", world.service.api_key]
    with pytest.raises(SystemExit) as exited:
        main([*base, "run", *args])
    return int(exited.value.code or 0), capsys.readouterr().err


def test_usage_and_unknown_run_set_exit_2(
    make_world: MakeWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    world = make_world(1)
    code, err = _main(capsys, world, "--eval-set", "texts")
    assert code == 2
    assert "--resume RUNSET_ID" in err
    code, err = _main(capsys, world, "--resume", "rs_missing")
    assert code == 2
    assert err.startswith("error: no run set at")
    code, err = _main(
        capsys, world, "--eval-set", "nope", "--processor", world.processor_id,
        "--version", "published",
    )  # fmt: skip
    assert code == 2
    assert "no evaluation set with id or name 'nope'" in err


def test_public_names_are_sorted_and_exist() -> None:
    module = importlib.import_module("fieldwise.runner")
    names = module.__all__
    assert names == sorted(
        names, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n)
    )
    for name in names:
        assert getattr(module, name) is not None
