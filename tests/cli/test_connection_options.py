"""Connection options before or after the subcommand, and from the environment (#39 item 5)."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from fieldwise.cli import cli, main
from fieldwise.service import RunningService

# Commands that never talk to a service: they read local folders only, are the service, or
# receive webhooks from one.
_OFFLINE = {"datasets", "plan", "runsets", "serve", "worker", "webhooks listen"}


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    out = capsys.readouterr()
    return int(exited.value.code or 0), out.out, out.err


def test_options_after_the_subcommand_reach_the_service(
    service: RunningService, capsys: pytest.CaptureFixture[str]
) -> None:
    remote = ["--base-url", service.base_url, "--api-key", service.api_key]
    code, _out, err = _main(capsys, "processors", "create", "Remote", *remote)
    assert code == 0, err
    code, out, err = _main(capsys, "processors", "list", "--json", *remote)
    assert code == 0, err
    assert [p["id"] for p in json.loads(out)] == ["remote"]
    # the embedded service was not started: the options went to the remote one
    assert not Path(".fieldwise").exists()


def test_evaluate_accepts_the_options_after_its_argument(
    service: RunningService, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _out, err = _main(
        capsys,
        "evaluate",
        str(tmp_path / "no-such-dataset"),
        "--base-url",
        service.base_url,
        "--api-key",
        service.api_key,
    )
    assert code == 2
    assert "No such option" not in err
    assert "no-such-dataset" in err


def test_options_from_the_environment(
    service: RunningService, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FIELDWISE_BASE_URL", service.base_url)
    monkeypatch.setenv("FIELDWISE_API_KEY", service.api_key)
    code, _out, err = _main(capsys, "processors", "create", "FromEnv")
    assert code == 0, err
    code, out, _err = _main(capsys, "processors", "list", "--json", "--base-url", service.base_url)
    assert [p["id"] for p in json.loads(out)] == ["fromenv"]
    assert not Path(".fieldwise").exists()


def test_the_same_value_twice_is_fine_two_values_are_refused(
    service: RunningService, capsys: pytest.CaptureFixture[str]
) -> None:
    before = ["--base-url", service.base_url, "--api-key", service.api_key]
    code, _out, err = _main(capsys, *before, "processors", "list", "--base-url", service.base_url)
    assert code == 0, err
    code, _out, err = _main(
        capsys, *before, "processors", "list", "--base-url", "http://127.0.0.1:9"
    )
    assert code == 2
    assert "--base-url is given twice" in err
    assert service.base_url in err
    assert "http://127.0.0.1:9" in err
    code, _out, err = _main(capsys, *before, "processors", "list", "--api-key", "other")
    assert code == 2
    assert "--api-key is given twice" in err
    assert "other" not in err.replace("--api-key", "")  # keys are not echoed


def test_every_service_command_takes_the_connection_options() -> None:
    ctx = click.Context(cli)

    def walk(command: click.Command, path: list[str]) -> list[tuple[list[str], click.Command]]:
        if isinstance(command, click.Group):
            found = []
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None
                found += walk(sub, [*path, name])
            return found
        return [(path, command)]

    checked = 0
    for path, command in walk(cli, []):
        if path[0] in _OFFLINE or " ".join(path) in _OFFLINE:
            continue
        names = {opt for param in command.params for opt in param.opts}
        assert {"--base-url", "--api-key", "--data-dir"} <= names, " ".join(path)
        result = CliRunner().invoke(cli, [*path, "--help"])
        assert "--base-url" in result.output, " ".join(path)
        checked += 1
    assert checked > 20


def test_a_refused_connection_names_the_url_it_tried(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import socket

    with socket.socket() as sock:  # a loopback port nothing listens on once closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    code, _out, err = _main(capsys, "--base-url", url, "--api-key", "k", "processors", "list")
    assert code == 2
    assert err.count("\n") == 1
    assert f"{url}/processors" in err
    assert "Traceback" not in err
