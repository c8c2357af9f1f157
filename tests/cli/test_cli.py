"""The CLI over a real service: output, --json, exit codes, the embedded default."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from fieldwise.cli import cli, main
from fieldwise.service import RunningService


def _invoke(service: RunningService, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli, ["--base-url", service.base_url, "--api-key", service.api_key, *args]
    )
    return result.exit_code, result.output


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    out = capsys.readouterr()
    return int(exited.value.code or 0), out.out, out.err


def test_processor_and_version_commands(service: RunningService, tmp_path: Path) -> None:
    code, out = _invoke(service, "processors", "create", "Invoices", "--description", "d")
    assert code == 0, out
    assert "invoices" in out
    config = tmp_path / "v1.json"
    config.write_text(json.dumps({"fields": [{"name": "total", "type": "currency"}]}))
    code, out = _invoke(
        service, "versions", "create", "invoices", "--config", str(config), "--publish", "--json"
    )
    assert code == 0, out
    version = json.loads(out)
    assert version["status"] == "published"
    code, out = _invoke(service, "processors", "show", "invoices", "--json")
    assert json.loads(out)["default_version_id"] == version["id"]
    code, out = _invoke(service, "versions", "list", "invoices", "--json")
    assert [v["id"] for v in json.loads(out)] == [version["id"]]
    code, out = _invoke(
        service, "processors", "update", "invoices", "--confidence-threshold", "0.8", "--json"
    )
    assert json.loads(out)["confidence_threshold"] == 0.8


def test_file_commands(service: RunningService, tmp_path: Path) -> None:
    doc = tmp_path / "a.txt"
    doc.write_text("hello")
    code, out = _invoke(service, "files", "upload", str(doc), "--metadata", '{"k": 1}', "--json")
    assert code == 0, out
    file_id = json.loads(out)[0]["id"]
    code, out = _invoke(service, "files", "list", "--json")
    assert [f["id"] for f in json.loads(out)] == [file_id]
    code, out = _invoke(service, "files", "delete", file_id)
    assert code == 0
    code, out = _invoke(service, "files", "list")
    assert "(none)" in out


def test_errors_print_one_line_and_exit_2(
    service: RunningService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--base-url", service.base_url, "--api-key", service.api_key]
    code, _out, err = _main(capsys, *base, "processors", "show", "nope")
    assert code == 2
    assert err.strip().count("\n") == 0
    assert err.startswith("error: 404 not_found")

    bad = tmp_path / "bad.json"
    bad.write_text('{"fields": [\n  oops\n]}')
    _main(capsys, *base, "processors", "create", "p")
    code, _out, err = _main(capsys, *base, "versions", "create", "p", "--config", str(bad))
    assert code == 2
    assert f"{bad}:2: invalid JSON" in err

    code, _out, err = _main(
        capsys, "--base-url", service.base_url, "--api-key", "wrong", "processors", "list"
    )
    assert code == 2
    assert "401" in err
    code, _out, err = _main(capsys, "processors", "frobnicate")
    assert code == 2


def test_embedded_service_persists_across_invocations(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _out, err = _main(capsys, "processors", "create", "Local")
    assert code == 0, err
    code, out, _err = _main(capsys, "processors", "list", "--json")
    assert [p["id"] for p in json.loads(out)] == ["local"]
    assert (tmp_path / ".fieldwise" / "service" / "fieldwise.db").is_file()


def test_every_command_has_help() -> None:
    ctx = click.Context(cli)

    def walk(command: click.Command, path: list[str]) -> list[tuple[list[str], click.Command]]:
        found = [(path, command)]
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None, name
                found += walk(sub, [*path, name])
        return found

    for path, command in walk(cli, []):
        result = CliRunner().invoke(cli, [*path, "--help"])
        assert result.exit_code == 0, path
        assert command.help or command.short_help, f"no help for {' '.join(path)}"


def test_sync_command_reports_plan_and_is_idempotent(
    service: RunningService, tmp_path: Path
) -> None:
    from tests.sync.test_sync import TRUTH, write_dataset

    root = write_dataset(tmp_path / "mini", TRUTH)
    code, out = _invoke(service, "sync", str(root), "--quiet")
    assert code == 0, out
    assert "create 3" in out
    assert "upload 3" in out
    code, out = _invoke(service, "sync", str(root), "--quiet")
    assert "unchanged 3" in out
    assert "create 0" in out
    (root / "ground_truth.jsonl").write_text('{"file": "documents/zz.txt", "ground_truth": {}}\n')
    code, out = _invoke(service, "sync", str(root), "--quiet")
    assert code != 0
