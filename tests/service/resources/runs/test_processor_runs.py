"""Processor runs over HTTP: every state move, cancel, delete, 409s, inputs, events."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, select

from fieldwise._errors import ConflictError, NotFoundError, UnprocessableError
from fieldwise.client import Client, ops
from fieldwise.service import RunningService
from fieldwise.service.events.outbox import events
from tests.conftest import ServiceFactory
from tests.service.resources.runs.conftest import invoice, make_processor, wait_for, wait_run

Upload = Callable[..., str]

GATED = {"engine": "python", "entrypoint": "tests.service.resources.runs.slow_engine:gated"}
BROKEN = {"engine": "python", "entrypoint": "tests.service.resources.runs.slow_engine:broken"}


def _events(service_dir: Path) -> list[tuple[str, dict[str, object]]]:
    engine = create_engine(f"sqlite:///{service_dir / 'fieldwise.db'}")
    with engine.connect() as conn:
        rows = [(r.type, r.data) for r in conn.execute(select(events).order_by(events.c.seq))]
    engine.dispose()
    return rows


def test_run_succeeds_with_output_inline_and_as_file(
    client: Client, upload: Upload, service: RunningService, tmp_path: Path
) -> None:
    pid = make_processor(client)
    file_id = upload(invoice(7))
    run = client.call(ops.create_run(pid, file_id))
    assert run.id.startswith("run_")
    assert run.status == "queued"
    assert run.queued_at
    assert run.output is None
    done = wait_run(client, pid, run.id)
    assert done.status == "succeeded"
    assert done.output["value"] == {"invoice_number": "INV-0007", "total": 7.5}
    assert done.output["metadata"]["total"]["page"] == 1
    assert done.output_uri == f"{service.base_url}/files/{done.output_file_id}"
    assert done.version_id == client.get_processor(pid).default_version_id
    assert done.started_at
    assert done.finished_at
    assert done.duration_ms is not None
    assert done.attempts == 1
    stored = httpx.get(
        done.output_uri + "/content", headers={"x-api-key": service.api_key}, timeout=60
    )
    assert stored.json() == done.output
    out_file = client.call(ops.get_file(done.output_file_id))
    assert (out_file.purpose, out_file.derived_from) == ("output", file_id)
    run_events = [e for e in _events(tmp_path / "service") if e[0].startswith("processor.run.")]
    ((kind, data),) = run_events
    assert kind == "processor.run.completed"
    assert data["run_id"] == run.id
    assert data["status"] == "succeeded"
    assert data["processor_id"] == pid
    assert data["output_uri"] == done.output_uri


def test_version_choice_and_no_published_version(client: Client, upload: Upload) -> None:
    client.create_processor("draft")
    file_id = upload(invoice(1))
    with pytest.raises(ConflictError):
        client.call(ops.create_run("draft", file_id))
    version = client.create_version(
        "draft", {"fields": [{"name": "total", "type": "currency", "labels": ["Total"]}]}
    )
    run = client.call(ops.create_run("draft", file_id, version_id=version.id))
    assert wait_run(client, "draft", run.id).output["value"] == {"total": 1.5}
    with pytest.raises(UnprocessableError):
        client.call(ops.create_run("draft", file_id, version_id="ver_nope"))
    with pytest.raises(NotFoundError):
        client.call(ops.create_run("nope", file_id))
    listed = client.call(ops.list_runs("draft", status="succeeded", version_id=version.id))
    assert [r.id for r in listed.data] == [run.id]
    assert client.call(ops.list_runs("draft", status="failed")).data == []


def test_input_paths(start_service: ServiceFactory, tmp_path: Path) -> None:
    root = tmp_path / "allowed"
    root.mkdir()
    (root / "a.txt").write_bytes(invoice(3))
    outside = tmp_path / "secret.txt"
    outside.write_bytes(invoice(4))
    (root / "link.txt").symlink_to(outside)
    service = start_service(allowed_file_roots=(root,))
    with Client(service.base_url, service.api_key, max_retries=0) as client:
        pid = make_processor(client)
        file_id = client.upload_file(invoice(5), filename="b.txt").id
        good = [
            file_id,
            f"{service.base_url}/files/{file_id}",
            f"file://{root / 'a.txt'}",
        ]
        for path in good:
            run = wait_run(client, pid, client.call(ops.create_run(pid, path)).id)
            assert run.status == "succeeded", (path, run)
        bad = [
            "file_doesnotexist",
            "https://example.com/files/" + file_id,
            f"file://{outside}",
            f"file://{root}/../secret.txt",
            f"file://{root / 'link.txt'}",
            f"file://{root / 'missing.txt'}",
            "s3://bucket/key.pdf",
            "relative/path.pdf",
        ]
        for path in bad:
            with pytest.raises(UnprocessableError) as err:
                client.call(ops.create_run(pid, path))
            assert err.value.param == "input_path", path


def test_parse_failure_fails_the_run(client: Client, upload: Upload) -> None:
    pid = make_processor(client)
    file_id = upload(b"%PDF-1.7\n broken", "broken.pdf")
    run = wait_run(client, pid, client.call(ops.create_run(pid, file_id)).id)
    assert run.status == "failed"
    assert run.failure_reason == "corrupt_document"
    assert run.failure_message
    assert run.output is None
    assert run.output_uri is None


@pytest.fixture
def python_service(start_service: ServiceFactory) -> RunningService:
    return start_service(allow_python_engines=True, workers=1)


def test_cancel_in_progress_stops_between_stages(
    python_service: RunningService, tmp_path: Path
) -> None:
    gate = tmp_path / "gate"
    with Client(python_service.base_url, python_service.api_key, max_retries=0) as client:
        pid = make_processor(client, "slow", GATED)
        file_id = client.upload_file(f"gate: {gate}\n".encode(), filename="g.txt").id
        run = client.call(ops.create_run(pid, file_id))
        wait_for(lambda: Path(f"{gate}.started").exists())
        assert client.call(ops.get_run(pid, run.id)).status == "in_progress"
        canceled = client.call(ops.cancel_run(pid, run.id))
        assert canceled.status == "canceled"
        gate.touch()
        # The worker finishes the extract stage, sees the cancel, and stores nothing.
        follow = client.call(ops.create_run(pid, file_id))
        assert wait_run(client, pid, follow.id).status == "succeeded"
        final = client.call(ops.get_run(pid, run.id))
        assert (final.status, final.output, final.output_file_id) == ("canceled", None, None)
        outputs = [f for f in client.list_files() if f.purpose == "output"]
        assert [f.metadata["run_id"] for f in outputs] == [follow.id]


def test_cancel_queued_and_terminal_409(python_service: RunningService, tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    with Client(python_service.base_url, python_service.api_key, max_retries=0) as client:
        pid = make_processor(client, "slow", GATED)
        file_id = client.upload_file(f"gate: {gate}\n".encode(), filename="g.txt").id
        first = client.call(ops.create_run(pid, file_id))
        wait_for(lambda: Path(f"{gate}.started").exists())
        # One worker is busy with the first run, so the second stays queued until canceled.
        second = client.call(ops.create_run(pid, file_id))
        assert client.call(ops.get_run(pid, second.id)).status == "queued"
        canceled = client.call(ops.cancel_run(pid, second.id))
        assert (canceled.status, canceled.started_at) == ("canceled", None)
        assert canceled.finished_at
        gate.touch()
        assert wait_run(client, pid, first.id).status == "succeeded"
        assert client.call(ops.get_run(pid, second.id)).status == "canceled"
        for run_id in (first.id, second.id):
            with pytest.raises(ConflictError):
                client.call(ops.cancel_run(pid, run_id))
        with pytest.raises(NotFoundError):
            client.call(ops.cancel_run(pid, "run_nope"))
        with pytest.raises(NotFoundError):
            client.call(ops.get_run("nope", first.id))


def test_delete_in_progress_run_cancels_it(python_service: RunningService, tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    with Client(python_service.base_url, python_service.api_key, max_retries=0) as client:
        pid = make_processor(client, "slow", GATED)
        file_id = client.upload_file(f"gate: {gate}\n".encode(), filename="g.txt").id
        run = client.call(ops.create_run(pid, file_id))
        wait_for(lambda: Path(f"{gate}.started").exists())
        client.call(ops.delete_run(pid, run.id))
        gate.touch()
        follow = wait_run(client, pid, client.call(ops.create_run(pid, file_id)).id)
        assert follow.status == "succeeded"
        with pytest.raises(NotFoundError):
            client.call(ops.get_run(pid, run.id))
        outputs = [f for f in client.list_files() if f.purpose == "output"]
        assert [f.metadata["run_id"] for f in outputs] == [follow.id]


def test_python_engine_failure_is_recorded(python_service: RunningService, tmp_path: Path) -> None:
    with Client(python_service.base_url, python_service.api_key, max_retries=0) as client:
        pid = make_processor(client, "bad", BROKEN)
        file_id = client.upload_file(b"hello", filename="g.txt").id
        run = wait_run(client, pid, client.call(ops.create_run(pid, file_id)).id)
        assert run.status == "failed"
        assert run.failure_reason == "extraction_error"
        assert "model not loaded" in (run.failure_message or "")
    kinds = [k for k, _ in _events(tmp_path / "service") if k.startswith("processor.run.")]
    assert kinds == ["processor.run.failed"]


def test_delete_removes_run_and_artifacts(
    client: Client, upload: Upload, service: RunningService, tmp_path: Path
) -> None:
    pid = make_processor(client)
    file_id = upload(invoice(11))
    run = wait_run(client, pid, client.call(ops.create_run(pid, file_id)).id)
    blob_root = tmp_path / "service" / "blobs"
    out_sha = client.call(ops.get_file(run.output_file_id)).sha256
    assert (blob_root / out_sha[:2] / out_sha[2:4] / out_sha).is_file()
    deleted = client.call(ops.delete_run(pid, run.id))
    assert deleted.deleted
    assert deleted.id == run.id
    assert not (blob_root / out_sha[:2] / out_sha[2:4] / out_sha).exists()
    with pytest.raises(NotFoundError):
        client.call(ops.get_run(pid, run.id))
    with pytest.raises(NotFoundError):
        client.call(ops.get_file(run.output_file_id))
    with pytest.raises(NotFoundError):
        client.call(ops.delete_run(pid, run.id))
    # The input stays; only the run's own artifacts go.
    assert client.call(ops.get_file(file_id)).id == file_id
