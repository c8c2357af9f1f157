"""``fieldwise gate`` records its verdict at the service only when one is running: given with
``--base-url``, it is recorded there (over real HTTP); for a run set of the embedded service,
which is not running, the verdict is saved with the run set and one note says how to record
it, without starting the service only for that."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fieldwise.client import Client
from fieldwise.service import RunningService
from tests.cli_main import run_main
from tests.evaluate._runsets import write_runset
from tests.service.resources.runs.conftest import CONFIG

TRUTH = {f"d{i}": {"invoice_number": f"N{i}", "total": 10.0 + i} for i in range(8)}


def _outputs(baseline: str, candidate: str) -> dict[str, dict[str, Any]]:
    """The candidate misses every total the baseline read: a FAIL."""
    return {
        baseline: dict(TRUTH),
        candidate: {name: {**gt, "total": None} for name, gt in TRUTH.items()},
    }


def _ran_on(results: Path, runset_id: str, identity: str, base_url: str, processor: str) -> None:
    """Make the run set's manifest name the service (and processor) it ran on."""
    path = results / runset_id / "runset.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest.update(service_identity=identity, base_url=base_url, processor_id=processor)
    path.write_text(json.dumps(manifest), encoding="utf-8")


def _notes(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("note: ")]


def test_gate_records_the_verdict_at_the_service_given(
    service: RunningService, client: Client, tmp_path: Path
) -> None:
    processor = client.create_processor("invoices")
    baseline = client.create_version(processor.id, CONFIG).id
    candidate = client.create_version(processor.id, CONFIG).id
    results = tmp_path / "results"
    write_runset(results, "rs_remote", TRUTH, _outputs(baseline, candidate))
    url = service.base_url.rstrip("/")
    _ran_on(results, "rs_remote", url, url, processor.id)

    gated = run_main(
        "gate", "rs_remote", "--results-dir", str(results),
        "--base-url", service.base_url, "--api-key", service.api_key,
    )  # fmt: skip

    assert gated.exit_code == 1, gated.stdout + gated.stderr
    assert _notes(gated.stderr) == []
    (version,) = [v for v in client.list_versions(processor.id) if v.id == candidate]
    verdict = version.verdict
    assert verdict is not None
    assert (verdict.outcome, verdict.runset_id) == ("fail", "rs_remote")


def test_gate_does_not_start_the_embedded_service_to_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FIELDWISE_BASE_URL", raising=False)
    results, data_dir = tmp_path / "results", tmp_path / "service"
    write_runset(results, "rs_local", TRUTH, _outputs("v1", "v2"))
    _ran_on(results, "rs_local", f"local:{data_dir.resolve()}", "http://127.0.0.1:1", "proc")

    gated = run_main("gate", "rs_local", "--results-dir", str(results), "--data-dir", str(data_dir))

    assert gated.exit_code == 1, gated.stdout + gated.stderr
    (note,) = _notes(gated.stderr)
    assert "not recorded at the embedded service" in note
    assert "`fieldwise evaluate` records" in note
    assert not data_dir.exists()  # the embedded service was never started
    saved = json.loads((results / "rs_local" / "verdict.json").read_text(encoding="utf-8"))
    assert "fail" in json.dumps(saved)
