"""The runs and workflows CLI, version-config validation, parse-once caching, retention."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from fieldwise._config import ServiceSettings
from fieldwise._errors import NotFoundError, UnprocessableError
from fieldwise.cli import cli
from fieldwise.client import Client, ops
from fieldwise.service import RunningService, create_app, start_in_thread
from fieldwise.service.app import app_state
from fieldwise.service.clock import ManualClock
from fieldwise.service.resources.runs.ops_retention import sweep_once
from tests.conftest import TEST_KEY
from tests.service.resources.runs.conftest import CONFIG, invoice, make_processor, wait_run


def _invoke(service: RunningService, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli, ["--base-url", service.base_url, "--api-key", service.api_key, *args]
    )
    return result.exit_code, result.output


def test_runs_and_workflows_commands(
    service: RunningService, client: Client, tmp_path: Path
) -> None:
    pid = make_processor(client)
    file_id = client.upload_file(invoice(8), filename="a.txt").id
    code, out = _invoke(service, "runs", "create", pid, file_id, "--wait", "--json")
    assert code == 0, out
    run = json.loads(out)
    assert run["status"] == "succeeded"
    assert run["output"]["value"]["total"] == 8.5
    code, out = _invoke(service, "runs", "list", pid, "--status", "succeeded", "--json")
    assert [r["id"] for r in json.loads(out)] == [run["id"]]
    code, out = _invoke(service, "runs", "show", pid, run["id"])
    assert code == 0
    assert "succeeded" in out
    code, out = _invoke(service, "runs", "cancel", pid, run["id"])
    assert code != 0
    code, out = _invoke(service, "runs", "delete", pid, run["id"])
    assert (code, out.strip()) == (0, f"deleted {run['id']}")

    graph = tmp_path / "graph.json"
    graph.write_text(
        json.dumps(
            {
                "nodes": [
                    {"id": "t", "type": "trigger"},
                    {"id": "x", "type": "processor", "processor_id": pid},
                ]
            }
        )
    )
    code, out = _invoke(service, "workflows", "create", "Flow", "--graph", str(graph), "--json")
    assert code == 0, out
    assert json.loads(out)["order"] == ["x"]
    code, out = _invoke(service, "workflows", "run", "flow", file_id, "--wait", "--json")
    wf_run = json.loads(out)
    assert wf_run["status"] == "succeeded"
    code, out = _invoke(
        service, "workflows", "label", "flow", wf_run["id"], "--label", "good", "--json"
    )
    assert json.loads(out)["labels"] == ["good"]
    code, out = _invoke(service, "workflows", "batch", "flow", file_id, file_id, "--sync", "--json")
    batch = json.loads(out)
    assert batch["done"]
    assert batch["counts"]["succeeded"] == 2
    code, out = _invoke(service, "workflows", "runs", "flow", "--json")
    assert len(json.loads(out)) == 3
    code, out = _invoke(service, "workflows", "list")
    assert "flow" in out


def test_version_config_is_validated(client: Client) -> None:
    client.create_processor("p")
    with pytest.raises(UnprocessableError) as err:
        client.create_version("p", {"fields": [{"name": "a", "type": "colour"}]})
    assert "fields[0].type" in str(err.value)
    with pytest.raises(UnprocessableError) as err:
        client.create_version("p", {"engine": "python", "entrypoint": "m:f"})
    assert "engine" in str(err.value)
    version = client.create_version("p", CONFIG)
    assert version.config == CONFIG


def test_versions_over_one_document_parse_it_once(client: Client) -> None:
    pid = make_processor(client)
    second = client.create_version(pid, {"fields": [{"name": "total", "type": "currency"}]})
    file_id = client.upload_file(invoice(4), filename="a.txt").id
    for version_id in (None, second.id, None):
        wait_run(client, pid, client.call(ops.create_run(pid, file_id, version_id=version_id)).id)
    parsed = [f for f in client.list_files() if f.purpose == "parsed"]
    assert len(parsed) == 1
    assert parsed[0].derived_from == file_id
    client.delete_file(file_id)
    assert [f for f in client.list_files() if f.purpose == "parsed"] == []


def test_retention_sweeper_removes_old_outputs(tmp_path: Path) -> None:
    clock = ManualClock()
    settings = ServiceSettings(data_dir=tmp_path / "svc", api_keys=(TEST_KEY,), retention_days=30)
    app = create_app(settings, clock=clock, announce=lambda _m: None)
    with start_in_thread(settings, app=app) as running, Client(running.base_url, TEST_KEY) as c:
        pid = make_processor(c)
        file_id = c.upload_file(invoice(6), filename="a.txt").id
        old = wait_run(c, pid, c.call(ops.create_run(pid, file_id)).id)
        clock.advance(timedelta(days=29))
        young = wait_run(c, pid, c.call(ops.create_run(pid, file_id)).id)
        state = app_state(app)
        assert sweep_once(state).processor_runs == 0
        clock.advance(timedelta(days=1, seconds=1))
        result = sweep_once(state)
        assert result.processor_runs == 1
        swept = c.call(ops.get_run(pid, old.id))
        assert (swept.status, swept.output, swept.output_uri) == ("succeeded", None, None)
        assert old.output_file_id is not None
        with pytest.raises(NotFoundError):
            c.call(ops.get_file(old.output_file_id))
        assert c.call(ops.get_run(pid, young.id)).output == young.output
        assert sweep_once(state).processor_runs == 0
