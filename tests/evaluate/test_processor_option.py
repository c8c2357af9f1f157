"""``evaluate --processor``: a folder made by ``datasets init`` has no [processor] table, and
its processor already lives on the service (#39 item 5)."""

from __future__ import annotations

import json
from pathlib import Path

from fieldwise.datasets.generate import generate_dataset
from fieldwise.service import RunningService
from tests.cli_main import MainResult, run_main


def test_evaluate_a_folder_from_datasets_init_with_processor(
    service: RunningService, tmp_path: Path
) -> None:
    folder = tmp_path / "mine"
    generate_dataset("invoices", count=8, seed=5, out_dir=folder, scanned_share=0.0)
    configs = (folder / "processor").rename(tmp_path / "configs")  # kept on the service only
    (folder / "dataset.toml").unlink()
    assert run_main("datasets", "init", str(folder)).exit_code == 0
    remote = ["--base-url", service.base_url, "--api-key", service.api_key]

    def fieldwise(*args: str) -> MainResult:
        return run_main(*remote, *args)  # the options before the command, as on main

    result = fieldwise("evaluate", str(folder))
    assert result.exit_code == 2
    assert "no [processor] table" in result.stderr
    assert "--processor" in result.stderr
    assert "--processor" in fieldwise("evaluate", "--help").stdout

    created = fieldwise("processors", "create", "Invoices", "--json")
    assert created.exit_code == 0, created.stderr
    pid = json.loads(created.stdout)["id"]
    for config, publish in (("v1.json", ["--publish"]), ("v2.json", [])):
        made = fieldwise("versions", "create", pid, "--config", str(configs / config), *publish)
        assert made.exit_code == 0, made.stderr

    for wanted in ("Invoices", pid):  # a name or an id
        result = fieldwise("evaluate", str(folder), "--processor", wanted, "--json")
        assert result.exit_code in (0, 1, 3), result.stderr
        shown = json.loads(result.stdout)
        assert shown["processor_id"] == pid
        assert shown["runset"]["pairs"] == 16  # 8 documents x (published, latest-draft)
    assert fieldwise("evaluate", str(folder), "--processor", "nope").exit_code == 2
