"""``fieldwise evaluation-runs`` through the real CLI entry (CliRunner) against the service."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from fieldwise.cli import cli, main
from fieldwise.service import RunningService
from tests.service.resources.evaluation_runs.conftest import World


def _invoke(service: RunningService, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli, ["--base-url", service.base_url, "--api-key", service.api_key, *args]
    )
    return result.exit_code, result.output


def test_create_show_list_results(service: RunningService, world: World) -> None:
    es, pid = world.eval_set_id, world.processor_id
    code, out = _invoke(service, "evaluation-runs", "create", es, pid, "--wait", "--json")
    assert code == 0, out
    run = json.loads(out)
    assert run["status"] == "succeeded"
    assert run["metrics"]["accuracy"] == pytest.approx(0.5)

    code, out = _invoke(service, "evaluation-runs", "show", es, run["id"])
    assert code == 0, out
    assert "accuracy                  0.5000" in out
    assert "f1                        0.6250" in out
    assert "5 (1 failed runs)" in out
    assert any(line.startswith("total ") for line in out.splitlines())

    code, out = _invoke(service, "evaluation-runs", "list", es, "--status", "succeeded", "--json")
    assert (code, [r["id"] for r in json.loads(out)]) == (0, [run["id"]])
    code, out = _invoke(service, "evaluation-runs", "list", es)
    assert code == 0
    assert "succeeded" in out

    code, out = _invoke(
        service, "evaluation-runs", "results", es, run["id"], "--outcome", "wrong", "--json"
    )
    assert code == 0, out
    (cell,) = json.loads(out)
    assert (cell["field"], cell["expected"], cell["predicted"]) == ("total", 9.99, 7.0)
    code, out = _invoke(service, "evaluation-runs", "results", es, run["id"])
    assert code == 0
    assert out.count("missed") == 3


def test_errors_exit_2_with_one_line(
    service: RunningService, world: World, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--base-url", service.base_url, "--api-key", service.api_key, "evaluation-runs"]
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "create", world.eval_set_id, "nope"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ")
    assert "nope" in err
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "show", world.eval_set_id, "evrun_nope"])
    assert exit_info.value.code == 2
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "create", world.eval_set_id, world.processor_id, "--wait", "--json"])
    assert exit_info.value.code == 0
    run_id = json.loads(capsys.readouterr().out)["id"]
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "cancel", world.eval_set_id, run_id])
    assert exit_info.value.code == 2
    assert "already succeeded" in capsys.readouterr().err
